import { parseUtcTimestamp } from "../lib/utc-timestamp.ts";

/**
 * Hand-written reads for the hottest paths (authentication, memberships, spaces, the nested site structure and the
 * long lists), sent straight to the database driver Prisma itself runs on: on PostgreSQL as prepared statements on
 * `pg`'s pool (pg-prepared-reads.ts), on PGlite through its query API. Prisma's client adds about 0.2 ms of CPU per
 * statement and about 10 ms per thousand rows on top of the driver (measured beside `npm run bench`), which was most
 * of a small request's time. Rows come back in Prisma's shape: one key per column, timestamps as Date, JSON parsed,
 * int8 as bigint; a column aliased `"relation.field"` lands in a nested `relation` object, null when that relation's
 * first column is null (a LEFT JOIN that found nothing).
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

/** Runs one statement, its values converted by `typeParsers`, in either of the row modes the drivers share. */
export interface DriverQueries {
  /** Each row as its values by column index. */
  arrays(sql: string, params: unknown[]): Promise<DriverRows<unknown[]>>;
  /** Each row as an object keyed by column name. */
  objects(sql: string, params: unknown[]): Promise<DriverRows<Record<string, unknown>>>;
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

/** Where each column of a statement's answer lands: its key, and the relation object holding it (if any). */
interface ColumnPlacement {
  keys: string[];
  relations: (string | undefined)[];
}

function placeColumns(fields: DriverRows<unknown>["fields"]): ColumnPlacement {
  const keys: string[] = [];
  const relations: (string | undefined)[] = [];
  for (const { name } of fields) {
    const dot = name.indexOf(".");
    keys.push(dot < 0 ? name : name.slice(dot + 1));
    relations.push(dot < 0 ? undefined : name.slice(0, dot));
  }
  return { keys, relations };
}

export function createSqlReader(
  query: DriverQueries,
  onStatement: (sql: string, params: unknown[]) => void,
): SqlReader {
  // The texts are a fixed set (module constants), each with fixed columns: placed once per text, not per call.
  const placements = new Map<string, ColumnPlacement>();
  // Texts whose columns hold no joined relation: the driver builds their rows as objects itself, without the array
  // of values per row that array mode allocates and this module would copy into an object.
  const plainTexts = new Set<string>();

  /** Each row's values as an object; its relations' nested objects inside it, or apart in `related`. */
  async function read(sql: string, params: readonly unknown[], apart: boolean) {
    const args = params.map(parameter);
    onStatement(sql, args);
    if (plainTexts.has(sql)) {
      const { rows } = await query.objects(sql, args);
      return { rows, related: apart ? rows.map(() => ({})) : [] };
    }
    const result = await query.arrays(sql, args);
    const count = result.fields.length;
    let placement = placements.get(sql);
    if (placement?.keys.length !== count) {
      placement = placeColumns(result.fields);
      placements.set(sql, placement);
      if (placement.relations.every((relation) => relation === undefined)) plainTexts.add(sql);
    }
    const { keys, relations } = placement;
    const related: Record<string, unknown>[] = [];
    // Plain loops: lists reach thousands of rows, and this runs for every value.
    const rows = result.rows.map((values) => {
      const row: Record<string, unknown> = {};
      const holder: Record<string, unknown> = apart ? {} : row;
      if (apart) related.push(holder);
      for (let index = 0; index < count; index++) {
        const value = values[index];
        const relation = relations[index];
        if (relation === undefined) {
          row[keys[index] as string] = value;
          continue;
        }
        if (!(relation in holder)) holder[relation] = value === null ? null : {};
        const nested = holder[relation] as Record<string, unknown> | null;
        if (nested) nested[keys[index] as string] = value;
      }
      return row;
    });
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
