import { type ColumnPlace, compileRowBuilder, type RowBuilder } from "../lib/row-builder.ts";
import { parseUtcTimestamp } from "../lib/utc-timestamp.ts";

/**
 * Hand-written reads for the hottest paths (authentication, memberships, spaces, the nested site structure and the long
 * lists), sent straight to the database driver Prisma itself runs on: on PostgreSQL as prepared statements on `pg`'s
 * pool (pg-prepared-reads.ts), on PGlite through its query API. Prisma's client adds CPU per statement and per row on
 * top of the driver, which was most of a small request's time (docs/performance.md). Rows come back in Prisma's shape:
 * one key per column, timestamps as Date, JSON parsed, int8 as bigint; a column aliased `"relation.field"` lands in a
 * nested `relation` object, null when that relation's first column is null (a LEFT JOIN that found nothing).
 */
export interface SqlReader {
  rows<Row>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
  /**
   * Like `rows`, with each row's joined relations in `related` at the same index instead of inside the row: a caller
   * that hands the relations elsewhere gets the rows without copying each one to drop them.
   */
  rowsAndRelated<Row, Related>(sql: string, params?: readonly unknown[]): Promise<{ rows: Row[]; related: Related[] }>;
}

/** A statement's answer from the drivers (`pg` and PGlite share the shape). */
interface DriverRows<Row> {
  fields: readonly { name: string }[];
  rows: Row[];
}

/** Runs one statement, its values converted by `typeParsers`, each row as its values by column index. */
export interface DriverQueries {
  arrays(sql: string, params: unknown[]): Promise<DriverRows<unknown[]>>;
}

/** PostgreSQL type oids whose text form the drivers would read otherwise than Prisma does. */
const int8Type = 20;
const timestampType = 1114;

/**
 * Parsers by type oid for both drivers (the rest keep the drivers' defaults, which match Prisma's: json and jsonb
 * parsed, arrays as arrays, int4 as number). Prisma's `DateTime` is `timestamp(3)` holding UTC, which both drivers
 * would read as local time; its `BigInt` (and `count(*)`) is a bigint, which `pg` reads as a string and PGlite as a
 * number.
 */
export const typeParsers: Record<number, (text: string) => unknown> = {
  [timestampType]: parseUtcTimestamp,
  [int8Type]: (text) => BigInt(text),
};

/** Dates are sent as UTC text: a `timestamp` column ignores the zone, and the drivers would send local time. */
const parameter = (value: unknown) => (value instanceof Date ? value.toISOString() : value);

/**
 * The select list reading `columns` of the table aliased `alias`, for reads that leave some out. `columns` is a
 * Record over the row type's keys, so that a column added to the model and not to the list fails to compile.
 */
export function selectedColumns<Row>(alias: string, columns: Record<keyof Row & string, true>): string {
  return Object.keys(columns)
    .map((column) => `${alias}."${column}"`)
    .join(", ");
}

/**
 * The select list reading a joined table (aliased `alias`) as the nested `relation` object of each row. `columns`
 * is a Record over the model's keys, as in `selectedColumns`.
 */
export function joinedColumns<Model>(alias: string, relation: string, columns: Record<keyof Model & string, true>) {
  return Object.keys(columns)
    .map((column) => `${alias}."${column}" AS "${relation}.${column}"`)
    .join(", ");
}

/**
 * A hand-written read by a set of keys, in two texts: the keys' match written `= $n` for one key, sent with the key
 * itself, and `= ANY($n)` for more, sent with the array (see `keyedText`). The reads run on generic plans
 * (database.ts), and PostgreSQL plans `= ANY($n)` for ten keys: for the one key of most reads by id it hashed the
 * space read's joined tables instead of probing their indexes, a fifth more of the database's CPU per read.
 */
export interface KeyedSql {
  one: string;
  many: string;
}

/** `write` puts the keys' match (`= $n` or `= ANY($n)`) where the statement compares the keys. */
export function keyedSql(write: (keysMatch: string) => string, parameter = 1): KeyedSql {
  return { one: write(`= $${parameter}`), many: write(`= ANY($${parameter})`) };
}

/** The text reading `keys`, and the value its keys parameter takes. */
export function keyedText(sql: KeyedSql, keys: readonly unknown[]): { text: string; keys: unknown } {
  return keys.length === 1 ? { text: sql.one, keys: keys[0] } : { text: sql.many, keys };
}

/** The same match for statements built per call (`paginateSql`'s), its parameter added by `bind`. */
export function keysMatch(keys: readonly unknown[], bind: (value: unknown) => string): string {
  return keys.length === 1 ? `= ${bind(keys[0])}` : `= ANY(${bind(keys)})`;
}

/** Where each column of a statement's answer lands: a column aliased `"relation.field"` inside `relation`. */
function placeColumns(fields: DriverRows<unknown>["fields"]): ColumnPlace[] {
  return fields.map(({ name }) => {
    const dot = name.indexOf(".");
    return dot < 0 ? { key: name, relation: undefined } : { key: name.slice(dot + 1), relation: name.slice(0, dot) };
  });
}

/** A text's row builders, for the columns it answered with (a migration may change them under a running process). */
interface Builders {
  columns: number;
  relationsInRow: RowBuilder;
  relationsApart: RowBuilder;
}

export function createSqlReader(
  query: DriverQueries,
  onStatement: (sql: string, params: unknown[]) => void,
): SqlReader {
  // The texts are a fixed set (module constants), each with fixed columns: compiled once per text, not per call.
  const builders = new Map<string, Builders>();
  const buildersFor = (sql: string, fields: DriverRows<unknown>["fields"]) => {
    let known = builders.get(sql);
    if (known?.columns !== fields.length) {
      const places = placeColumns(fields);
      known = {
        columns: fields.length,
        relationsInRow: compileRowBuilder(places, false),
        relationsApart: compileRowBuilder(places, true),
      };
      builders.set(sql, known);
    }
    return known;
  };

  /** Each row's values as an object; its relations' nested objects inside it, or apart in `related`. */
  async function read(sql: string, params: readonly unknown[], apart: boolean) {
    const args = params.map(parameter);
    onStatement(sql, args);
    const result = await query.arrays(sql, args);
    const builders = buildersFor(sql, result.fields);
    const build = apart ? builders.relationsApart : builders.relationsInRow;
    const related: Record<string, unknown>[] = [];
    const rows = result.rows.map((values) => build(values, related));
    return { rows, related };
  }

  return {
    async rows<Row>(sql: string, params: readonly unknown[] = []) {
      return (await read(sql, params, false)).rows as Row[];
    },
    async rowsAndRelated<Row, Related>(sql: string, params: readonly unknown[] = []) {
      const { rows, related } = await read(sql, params, true);
      return { rows: rows as Row[], related: related as Related[] };
    },
  };
}
