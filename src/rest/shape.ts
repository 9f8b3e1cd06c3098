import {
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  getNamedType,
  isAbstractType,
  isEnumType,
  isObjectType,
  Kind,
  type NamedTypeNode,
  type SelectionSetNode,
} from "graphql";
import { restKeepsNull, restNestsByParent, restObjectName, restRenamedValues } from "./conventions.ts";

/**
 * How to turn one selected value into REST JSON, computed once per route from its document and the schema:
 * nulls are dropped unless the field keeps them, connections become `{ items, count, next }` envelopes, and
 * `__typename` answers the REST object name (see `conventions.ts`).
 */
export interface ShapePlan {
  keepsNull: boolean;
  connection: boolean;
  /** A flat list whose items nest under the item their `parent` names (`restNestsByParent`). */
  nestsByParent?: boolean;
  /** A `__typename`: the REST object name of each type it can name. */
  objectNames?: Readonly<Record<string, string>>;
  /** An enum's value: its GraphQL name -> the public value the REST body carries (`ADMIN` -> `admin`). */
  publicValues?: ReadonlyMap<string, unknown>;
  fields?: Map<string, ShapePlan>;
  /**
   * A fragment narrows the selection to some of the types the value can be: its results may then hold the fields in
   * another order than `fields`, and are shaped key by key (`shapeObject` is not used).
   */
  narrowed?: boolean;
  /** The shaper of an object value, compiled from `fields` on first use (`compileObjectShaper`). */
  shapeObject?: ObjectShaper;
}

const objectNamesBySchema = new WeakMap<GraphQLSchema, Readonly<Record<string, string>>>();

/** Every type's REST object name, by type name: one table per schema, whatever the fragments that select it. */
function objectNamesOf(schema: GraphQLSchema): Readonly<Record<string, string>> {
  let names = objectNamesBySchema.get(schema);
  if (!names) {
    names = Object.fromEntries(
      Object.values(schema.getTypeMap()).flatMap((type) => {
        const name = restObjectName(type);
        return name ? [[type.name, name]] : [];
      }),
    );
    objectNamesBySchema.set(schema, names);
  }
  return names;
}

/** Checks at start-up that every type a `__typename` can name has a REST object name. */
function planObjectName(schema: GraphQLSchema, parentType: GraphQLNamedType): ShapePlan {
  const types = isAbstractType(parentType) ? schema.getPossibleTypes(parentType) : [parentType];
  const unnamed = types.find((type) => !restObjectName(type));
  if (unnamed)
    throw new Error(`REST documents select __typename only on types with a REST object name (${unnamed.name})`);
  return { keepsNull: false, connection: false, objectNames: objectNamesOf(schema) };
}

function isConnectionType(type: GraphQLNamedType): boolean {
  return isObjectType(type) && type.name.endsWith("Connection") && "pageInfo" in type.getFields();
}

/** Plans the fields `selectionSet` selects on a value of `parentType` into `plan.fields` (merged with those it has). */
export function planSelection(
  schema: GraphQLSchema,
  parentType: GraphQLNamedType,
  selectionSet: SelectionSetNode,
  fragments: Map<string, FragmentDefinitionNode>,
  plan: ShapePlan,
): void {
  plan.fields ??= new Map();
  if (collectFields(schema, parentType, selectionSet, fragments, plan.fields)) plan.narrowed = true;
}

/** Adds the plans of the fields `selectionSet` selects to `fields`; true when a fragment narrows the type. */
function collectFields(
  schema: GraphQLSchema,
  parentType: GraphQLNamedType,
  selectionSet: SelectionSetNode,
  fragments: Map<string, FragmentDefinitionNode>,
  fields: Map<string, ShapePlan>,
): boolean {
  let narrows = false;
  // Fragments narrow the type (a union's members); their fields share one plan per response key.
  const collectFragment = (condition: NamedTypeNode | undefined, fragmentSelections: SelectionSetNode) => {
    const type = (condition && schema.getType(condition.name.value)) || parentType;
    if (type !== parentType) narrows = true;
    if (collectFields(schema, type, fragmentSelections, fragments, fields)) narrows = true;
  };
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FRAGMENT_SPREAD) {
      const fragment = fragments.get(selection.name.value);
      if (!fragment) throw new Error(`Unknown fragment ${selection.name.value}`);
      collectFragment(fragment.typeCondition, fragment.selectionSet);
      continue;
    }
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      collectFragment(selection.typeCondition, selection.selectionSet);
      continue;
    }
    const key = selection.alias?.value ?? selection.name.value;
    if (selection.name.value === "__typename") {
      fields.set(key, planObjectName(schema, parentType));
      continue;
    }
    if (!isObjectType(parentType))
      throw new Error(`REST documents select fields on object types only (${parentType.name})`);
    const field = parentType.getFields()[selection.name.value] as GraphQLField<unknown, unknown> | undefined;
    if (!field) throw new Error(`Unknown field ${parentType.name}.${selection.name.value}`);
    const type = getNamedType(field.type);
    const renamed = restRenamedValues(field, key);
    const plan: ShapePlan = fields.get(key) ?? {
      keepsNull: restKeepsNull(field),
      connection: isConnectionType(type),
      nestsByParent: restNestsByParent(field),
      ...(isEnumType(type) && {
        publicValues: new Map(renamed ? Object.entries(renamed) : type.getValues().map((v) => [v.name, v.value])),
      }),
    };
    if (selection.selectionSet) planSelection(schema, type, selection.selectionSet, fragments, plan);
    fields.set(key, plan);
  }
  return narrows;
}

interface ConnectionResult {
  totalCount?: number;
  pageInfo?: { hasNextPage?: boolean; endCursor?: string | null };
  nodes?: unknown[];
  [extra: string]: unknown;
}

/** The fields every connection has; the others a list selects (a list's `stats`) join the envelope as they are. */
export const connectionFields = new Set(["totalCount", "pageInfo", "nodes", "edges"]);

/**
 * Turns a flat list of `{ id, parent, ... }` into a tree: each item goes into the `pages` of the item its `parent`
 * names, and items whose parent is not in the list are the top level. `parent` itself is not part of the output.
 */
function nestByParent(items: Record<string, unknown>[]): Record<string, unknown>[] {
  const byId = new Map<unknown, Record<string, unknown>>();
  for (const item of items) {
    item.pages = [];
    byId.set(item.id, item);
  }
  const top: Record<string, unknown>[] = [];
  for (const item of items) {
    const parent = byId.get(item.parent);
    delete item.parent;
    if (parent) (parent.pages as unknown[]).push(item);
    else top.push(item);
  }
  return top;
}

export function applyPlan(plan: ShapePlan, value: unknown): unknown {
  if (value === null || value === undefined) return value;
  if (plan.objectNames) return plan.objectNames[value as string];
  if (Array.isArray(value)) {
    const items = value.map((item) => applyPlan(plan, item));
    return plan.nestsByParent ? nestByParent(items as Record<string, unknown>[]) : items;
  }
  if (plan.publicValues) return plan.publicValues.get(value as string);
  if (!plan.fields || typeof value !== "object") return value;
  if (plan.connection) {
    const connection = value as ConnectionResult;
    const nodesPlan = plan.fields.get("nodes");
    const envelope: Record<string, unknown> = {
      items: (connection.nodes ?? []).map((node) => (nodesPlan ? applyPlan(nodesPlan, node) : node)),
    };
    if (connection.totalCount !== undefined) envelope.count = connection.totalCount;
    if (connection.pageInfo?.hasNextPage && connection.pageInfo.endCursor) {
      envelope.next = { page: connection.pageInfo.endCursor };
    }
    for (const [key, childPlan] of plan.fields) {
      const child = connection[key];
      if (!connectionFields.has(key) && child !== null && child !== undefined) {
        envelope[key] = applyPlan(childPlan, child);
      }
    }
    return envelope;
  }
  if (!plan.narrowed) {
    plan.shapeObject ??= compileObjectShaper(plan.fields);
    return plan.shapeObject(value as Record<string, unknown>);
  }
  const out: Record<string, unknown> = {};
  const object = value as Record<string, unknown>;
  // for...in over the result's own keys (execution results are plain objects): Object.entries allocated a pair per
  // field, a fifth of a 1000-item list's shaping.
  for (const key in object) {
    const child = object[key];
    const childPlan = plan.fields.get(key);
    if (child === null && !childPlan?.keepsNull) continue;
    const shaped = childPlan ? applyPlan(childPlan, child) : child;
    const group = groupedKey(key);
    if (!group) {
      out[key] = shaped;
      continue;
    }
    out[group.outer] ??= {};
    (out[group.outer] as Record<string, unknown>)[group.inner] = shaped;
  }
  return out;
}

/**
 * A response key `outer__inner` answers as `inner` inside the object `outer`: REST bodies group fields a GraphQL
 * type has on the node itself (`permissions__view: viewerCanView` gives `permissions: { view }`).
 */
export function groupedKey(key: string): { outer: string; inner: string } | undefined {
  const at = key.indexOf("__");
  if (at <= 0) return undefined;
  return { outer: key.slice(0, at), inner: key.slice(at + 2) };
}

/** Shapes one object value as its plan says. */
type ObjectShaper = (value: Record<string, unknown>) => Record<string, unknown>;

/** A plan that passes its value on as it is (a scalar, or a list of them): no fields, values or names to map. */
function isPlainValue(plan: ShapePlan): boolean {
  return !plan.fields && !plan.publicValues && !plan.objectNames && !plan.nestsByParent;
}

/**
 * `applyPlan` of an object value as one object literal, every field of the plan in order: V8 allocates the shaped
 * object at its final size, where adding keys one by one reallocated its property storage as it grew (garbage per
 * item, a large share of what a long list allocated: docs/performance.md). A field the body leaves out
 * (null without `keepsNull`, or absent) is `undefined`, which JSON.stringify skips: the literal's keys are those of
 * the plan, in the order the result holds them (for plans no fragment narrows), so the JSON is the same.
 */
function compileObjectShaper(fields: ReadonlyMap<string, ShapePlan>): ObjectShaper {
  const plans: ShapePlan[] = [];
  const names: Readonly<Record<string, string>>[] = [];
  const shapedValue = (key: string, plan: ShapePlan) => {
    const name = JSON.stringify(key);
    const whenNull = plan.keepsNull ? "null" : "undefined";
    if (plan.objectNames) {
      names.push(plan.objectNames);
      return `(c = v[${name}]) == null ? undefined : names[${names.length - 1}][c]`;
    }
    if (isPlainValue(plan)) return plan.keepsNull ? `v[${name}]` : `(c = v[${name}]) === null ? undefined : c`;
    plans.push(plan);
    return `(c = v[${name}]) === null ? ${whenNull} : apply(plans[${plans.length - 1}], c)`;
  };
  // Grouped keys (`groupedKey`) become one nested literal, where their group's first key stands.
  const entries: { name: string; value?: string; members?: string[] }[] = [];
  const groups = new Map<string, string[]>();
  for (const [key, plan] of fields) {
    // `__proto__` in a literal would set the prototype instead of a property.
    if (key === "__proto__") throw new Error("a REST document may not select a field named __proto__");
    const group = groupedKey(key);
    if (group && (group.outer === "__proto__" || group.inner === "__proto__")) {
      throw new Error("a REST document may not group a field under or as __proto__");
    }
    if (!group) {
      entries.push({ name: JSON.stringify(key), value: shapedValue(key, plan) });
      continue;
    }
    let members = groups.get(group.outer);
    if (!members) {
      members = [];
      groups.set(group.outer, members);
      entries.push({ name: JSON.stringify(group.outer), members });
    }
    members.push(`${JSON.stringify(group.inner)}: ${shapedValue(key, plan)}`);
  }
  const literal = entries.map(
    ({ name, value, members }) => `${name}: ${members ? `{ ${members.join(", ")} }` : value}`,
  );
  const compile = new Function(
    "plans",
    "names",
    "apply",
    `return (v) => { let c; return { ${literal.join(", ")} }; };`,
  );
  return compile(plans, names, applyPlan) as ObjectShaper;
}
