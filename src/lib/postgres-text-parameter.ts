/**
 * A statement parameter in PostgreSQL's text format, as `pg` itself sends one: null stays null (SQL NULL), an array
 * becomes an array literal (`{"a","b\"c",NULL}`), a Date its ISO form, an object its JSON, anything else its string.
 */
export function postgresTextParameter(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return arrayLiteral(value);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

function arrayLiteral(values: readonly unknown[]): string {
  let literal = "{";
  for (let index = 0; index < values.length; index++) {
    if (index > 0) literal += ",";
    const value = values[index];
    if (Array.isArray(value)) literal += arrayLiteral(value);
    else {
      const text = postgresTextParameter(value);
      literal += text === null ? "NULL" : `"${text.replace(/[\\"]/g, "\\$&")}"`;
    }
  }
  return `${literal}}`;
}
