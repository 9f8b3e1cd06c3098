import type { ArgType, ColumnType, SqlQueryable } from "@prisma/driver-adapter-utils";

/**
 * Hand-written reads for the hottest paths (authentication, memberships, spaces, the nested site structure and the
 * long lists), sent straight to the driver adapter Prisma itself runs on, so PGlite and PostgreSQL both serve them.
 * Prisma's client adds about 0.2 ms of CPU per statement and about 10 ms per thousand rows on top of the driver
 * (measured beside `npm run bench`), which was most of a small request's time. Rows come back in Prisma's shape:
 * one key per column, timestamps as Date, JSON parsed; a column aliased `"relation.field"` lands in a nested
 * `relation` object, null when that relation's first column is null (a LEFT JOIN that found nothing).
 */
export interface SqlReader {
  rows<Row>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
}

// The adapters' ColumnTypeEnum values this reader converts (the rest arrive as Prisma returns them).
const int64Column = 1;
const dateTimeColumn = 10;
const jsonColumn = 11;

function argType(value: unknown): ArgType {
  if (Array.isArray(value)) return { ...argType(value[0] ?? ""), arity: "list" };
  if (value instanceof Date) return { scalarType: "datetime", arity: "scalar" };
  if (typeof value === "number") return { scalarType: Number.isInteger(value) ? "int" : "float", arity: "scalar" };
  if (typeof value === "boolean") return { scalarType: "boolean", arity: "scalar" };
  return { scalarType: "string", arity: "scalar" };
}

function converter(type: ColumnType): ((value: unknown) => unknown) | undefined {
  if (type === dateTimeColumn) return (value) => new Date(value as string);
  if (type === jsonColumn) return (value) => JSON.parse(value as string);
  if (type === int64Column) return (value) => BigInt(value as string);
  return undefined;
}

/**
 * The select list reading a joined table (aliased `alias`) as the nested `relation` object of each row. `columns`
 * is a Record over the model's keys, so that a column added to the model and not to the list fails to compile.
 */
export function joinedColumns<Model>(alias: string, relation: string, columns: Record<keyof Model & string, true>) {
  return Object.keys(columns)
    .map((column) => `${alias}."${column}" AS "${relation}.${column}"`)
    .join(", ");
}

export function createSqlReader(
  connection: Promise<SqlQueryable>,
  onStatement: (sql: string, params: unknown[]) => void,
): SqlReader {
  return {
    async rows<Row>(sql: string, params: readonly unknown[] = []) {
      const args = [...params];
      onStatement(sql, args);
      const result = await (await connection).queryRaw({ sql, args, argTypes: args.map(argType) });
      const count = result.columnNames.length;
      const keys: string[] = [];
      const relations: (string | undefined)[] = [];
      const converters: (((value: unknown) => unknown) | undefined)[] = [];
      for (let index = 0; index < count; index++) {
        const name = result.columnNames[index] as string;
        const dot = name.indexOf(".");
        keys.push(dot < 0 ? name : name.slice(dot + 1));
        relations.push(dot < 0 ? undefined : name.slice(0, dot));
        converters.push(converter(result.columnTypes[index] as ColumnType));
      }
      // Plain loops: lists reach thousands of rows, and this runs for every value.
      return result.rows.map((values) => {
        const row: Record<string, unknown> = {};
        for (let index = 0; index < count; index++) {
          const raw = values[index];
          const convert = converters[index];
          const value = raw === null || !convert ? raw : convert(raw);
          const relation = relations[index];
          if (relation === undefined) {
            row[keys[index] as string] = value;
            continue;
          }
          if (!(relation in row)) row[relation] = value === null ? null : {};
          const nested = row[relation] as Record<string, unknown> | null;
          if (nested) nested[keys[index] as string] = value;
        }
        return row as Row;
      });
    },
  };
}
