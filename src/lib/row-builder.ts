/** Where one column's value lands in a row: under `key`, inside the nested `relation` object when it has one. */
export interface ColumnPlace {
  key: string;
  relation: string | undefined;
}

/** Builds a row from a statement's values by column index; with relations apart, pushes them onto `related`. */
export type RowBuilder = (values: readonly unknown[], related: Record<string, unknown>[]) => Record<string, unknown>;

/**
 * A row builder for one statement's columns, written as object literals: V8 allocates each row at its final shape
 * with its properties in the object, where rows built key by key start small and reallocate their property storage
 * as they grow (a space row has ~45 columns). A relation is null when its first column is (a LEFT JOIN that found
 * nothing). With `relationsApart`, relations go into an object pushed onto `related` instead of into the row.
 */
export function compileRowBuilder(places: readonly ColumnPlace[], relationsApart: boolean): RowBuilder {
  const field = (key: string, expression: string) => {
    // `__proto__` in a literal would set the prototype instead of a property.
    if (key === "__proto__") throw new Error("a column may not be named __proto__");
    return `${JSON.stringify(key)}: ${expression}`;
  };
  // The row's entries in column order, each a field or the relation a column first names.
  const entries: ({ text: string } | { relation: string })[] = [];
  const relations = new Map<string, { first: number; fields: string[] }>();
  places.forEach(({ key, relation }, index) => {
    if (relation === undefined) {
      entries.push({ text: field(key, `v[${index}]`) });
      return;
    }
    let nested = relations.get(relation);
    if (!nested) {
      nested = { first: index, fields: [] };
      relations.set(relation, nested);
      if (!relationsApart) entries.push({ relation });
    }
    nested.fields.push(field(key, `v[${index}]`));
  });
  const relationField = (relation: string) => {
    const { first, fields } = relations.get(relation) as { first: number; fields: string[] };
    return field(relation, `v[${first}] === null ? null : { ${fields.join(", ")} }`);
  };
  const row = `{ ${entries.map((entry) => ("text" in entry ? entry.text : relationField(entry.relation))).join(", ")} }`;
  const body = relationsApart
    ? `related.push({ ${[...relations.keys()].map(relationField).join(", ")} }); return ${row};`
    : `return ${row};`;
  return new Function("v", "related", body) as RowBuilder;
}
