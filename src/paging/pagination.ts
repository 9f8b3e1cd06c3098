import { Prisma } from "../db/generated/client.ts";
import type { SqlReader } from "../db/sql.ts";
import { InvalidInputError } from "../lib/errors.ts";

/** Relay arguments; REST's `limit` is `first` and `page` is `after`. */
export interface PageArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

/** One item of a page with its cursor. */
export interface Edge<Node> {
  cursor: string;
  node: Node;
}

/**
 * The size of a whole list: known, or counted when a read asks for it (a GraphQL read that does not select
 * `totalCount` never counts the list; REST's envelope always does).
 */
export type TotalCount = number | (() => Promise<number>);

export interface Page<Node> {
  edges: Edge<Node>[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
  totalCount: TotalCount;
}

/** A list's size, counted at most once per page however many times it is read. */
function countOnce(count: () => Promise<number>): () => Promise<number> {
  let counted: Promise<number> | undefined;
  return () => {
    counted ??= count();
    return counted;
  };
}

export const maxPageSize = 1000;
const defaultPageSize = 100;

export type SortValue = string | number | Date;
/** A stable order: the last key must be unique (an id), so every row has exactly one position. */
export type SortKey<Node> = { field: keyof Node & string; direction: "asc" | "desc" };

type Where = Record<string, unknown>;

/** What `paginate` needs of a Prisma model delegate (`ctx.prisma.team`, ...). */
interface KeysetModel<Node> {
  findMany(query: { where: object; orderBy: Record<string, "asc" | "desc">[]; take: number }): PromiseLike<Node[]>;
  count(query: { where: object }): PromiseLike<number>;
}

export interface KeysetQuery<Node> {
  model: KeysetModel<Node>;
  sort: readonly SortKey<Node>[];
  /** The list's filter, in the model's Prisma `where` shape. */
  where: object;
}

export function pageSize(value: number | null | undefined, name = "first"): number {
  if (value === null || value === undefined) return defaultPageSize;
  if (!Number.isInteger(value) || value < 0 || value > maxPageSize) {
    throw new InvalidInputError(`${name} must be an integer between 0 and ${maxPageSize}`);
  }
  return value;
}

/** Any list's sort, as far as its cursors care. */
type Order = readonly { field: string; direction: "asc" | "desc" }[];

/** The order a cursor belongs to (`updatedAt desc,id desc`): a cursor is only valid in the order that made it. */
export function orderOf(sort: Order): string {
  return sort.map((key) => `${key.field} ${key.direction}`).join(",");
}

/**
 * The list a keyset page belongs to, beyond its order: the parent ids of its filter (its top-level `...Id` string
 * values: `organizationId`, `siteId`, `teamId`, ...), so that a cursor of one team's members is not read as a
 * position in another's. Undefined when the filter names no parent.
 */
export function scopeOf(where: object): string | undefined {
  const parents = Object.entries(where)
    .filter(([key, value]) => key.endsWith("Id") && typeof value === "string")
    .map(([key, value]) => `${key}=${value}`)
    .sort();
  return parents.length > 0 ? parents.join("&") : undefined;
}

function encodeCursor(sort: Order, values: SortValue[], scope?: string): string {
  const encoded = values.map((v) => (v instanceof Date ? { d: v.toISOString() } : v));
  const cursor =
    scope === undefined ? { order: orderOf(sort), values: encoded } : { order: orderOf(sort), values: encoded, scope };
  return Buffer.from(JSON.stringify(cursor)).toString("base64url");
}

/**
 * A cursor's values in `sort`. A cursor made in a list with a scope (`scopeOf`) is refused in a list with another;
 * one made without (a mutation's edge, a nested read's first page) is taken as a position in any list of its order.
 */
export function decodeCursor(cursor: string, sort: Order, scope?: string): SortValue[] {
  let parsed: { order?: unknown; values?: unknown; scope?: unknown } | undefined;
  try {
    parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    parsed = undefined;
  }
  const values = parsed?.values;
  if (!Array.isArray(values) || values.length !== sort.length) throw new InvalidInputError("Invalid page cursor");
  if (parsed?.order !== orderOf(sort)) {
    throw new InvalidInputError("Invalid page cursor: it belongs to another order; ask for the first page again");
  }
  if (scope !== undefined && parsed?.scope !== undefined && parsed.scope !== scope) {
    throw new InvalidInputError("Invalid page cursor: it belongs to another list; ask for the first page again");
  }
  return values.map((value: unknown) => {
    if (typeof value === "string" && !value.includes("\u0000")) return value;
    if (typeof value === "number") return value;
    if (value && typeof value === "object" && typeof (value as { d?: unknown }).d === "string") {
      const date = new Date((value as { d: string }).d);
      if (!Number.isNaN(date.getTime())) return date;
    }
    throw new InvalidInputError("Invalid page cursor");
  });
}

/** Rows strictly after (or before) the cursor position in the given order. */
function keysetWhere<Node>(sort: readonly SortKey<Node>[], values: SortValue[], side: "after" | "before"): Where {
  return {
    OR: sort.map((key, index) => {
      const ascending = key.direction === "asc";
      const operator = ascending === (side === "after") ? "gt" : "lt";
      const clause: Where = {};
      for (let i = 0; i < index; i++) clause[(sort[i] as SortKey<Node>).field] = values[i];
      clause[key.field] = { [operator]: values[index] };
      return clause;
    }),
  };
}

function cursorOf<Node>(sort: readonly SortKey<Node>[], node: Node, scope?: string): string {
  return encodeCursor(
    sort,
    sort.map((key) => node[key.field] as SortValue),
    scope,
  );
}

/**
 * An edge whose cursor is encoded when read: a REST page of a thousand items only needs the last one's, and a
 * GraphQL client only those it selects. Mutation payloads answer the new node's edge with it, so the cursor is one
 * the list pages on from. A class, so that the getter is its prototype's: a literal's getter was a closure and an
 * accessor pair per edge, garbage for each item of a list. The cursor is the row's, which the node may
 * wrap (`mapNodes`).
 */
class LazyCursorEdge<Row, Node> implements Edge<Node> {
  constructor(
    private readonly sort: readonly SortKey<Row>[],
    private readonly row: Row,
    readonly node: Node,
    private readonly scope?: string,
  ) {}

  get cursor(): string {
    return cursorOf(this.sort, this.row, this.scope);
  }

  withNode<Mapped>(node: Mapped): LazyCursorEdge<Row, Mapped> {
    return new LazyCursorEdge(this.sort, this.row, node, this.scope);
  }
}

export function edgeOf<Node>(sort: readonly SortKey<Node>[], node: Node): Edge<Node> {
  return new LazyCursorEdge(sort, node, node);
}

/** The page with each node replaced by `map(node, index)`; the cursors stay those of the rows read, encoded when read. */
export function mapNodes<Node, Mapped>(page: Page<Node>, map: (node: Node, index: number) => Mapped): Page<Mapped> {
  return {
    ...page,
    edges: page.edges.map((edge, index) => {
      const node = map(edge.node, index);
      return edge instanceof LazyCursorEdge ? edge.withNode(node) : { cursor: edge.cursor, node };
    }),
  };
}

/** Where a keyset page starts and ends: cursor values, the fetch direction and how many rows to fetch. */
interface KeysetBounds {
  after?: SortValue[];
  before?: SortValue[];
  /** Fetch in the reverse of the sort order (a `last` page), to be reversed after. */
  backward: boolean;
  take: number;
}

/** The shared keyset page logic of `paginate` (Prisma) and `paginateSql` (hand-written SQL). */
async function keysetPage<Node>(
  args: PageArgs,
  sort: readonly SortKey<Node>[],
  fetch: (bounds: KeysetBounds) => Promise<Node[]>,
  count: () => Promise<number>,
  /** Whether an error means that a well-formed cursor's values do not fit the sort fields' types (forged). */
  isCursorTypeError: (error: unknown) => boolean,
  scope?: string,
): Promise<Page<Node>> {
  const backward = isSet(args.last) && !isSet(args.first);
  const size = backward ? pageSize(args.last, "last") : pageSize(args.first);
  // With `first` and `last` both, the forward fetch must also tell whether more than `last` rows follow `after`.
  const last = !backward && isSet(args.last) ? pageSize(args.last, "last") : undefined;
  const take = Math.max(size, last ?? 0) + 1;
  const cursor = backward ? args.before : args.after;
  const bounds: KeysetBounds = { backward, take };
  if (cursor) bounds[backward ? "before" : "after"] = decodeCursor(cursor, sort, scope);
  if (!backward && args.before) bounds.before = decodeCursor(args.before, sort, scope);
  const rows = await (take === 1 ? Promise.resolve([]) : fetch(bounds)).catch((error: unknown) => {
    if ((args.after || args.before) && isCursorTypeError(error)) throw new InvalidInputError("Invalid page cursor");
    throw error;
  });
  let page: ForwardPage<Node>;
  if (backward) {
    const more = rows.length > size;
    const pageRows = more ? rows.slice(0, size) : rows;
    page = { rows: pageRows.reverse(), hasNextPage: Boolean(args.before), hasPreviousPage: more };
  } else {
    page = firstThenLast(rows, size, last, Boolean(args.after));
  }
  return connectionPage(sort, page, countOnce(count), scope);
}

/**
 * The connection of a page's rows: their edges, and page info with the first and last edge's cursors, encoded when
 * read like the edges' (a nested read's hundreds of connections mostly select neither).
 */
export function connectionPage<Node>(
  sort: readonly SortKey<Node>[],
  page: ForwardPage<Node>,
  totalCount: TotalCount,
  scope?: string,
): Page<Node> {
  const edges = page.rows.map((node) => new LazyCursorEdge(sort, node, node, scope));
  return {
    edges,
    totalCount,
    pageInfo: {
      hasNextPage: page.hasNextPage,
      hasPreviousPage: page.hasPreviousPage,
      get startCursor() {
        return edges[0]?.cursor ?? null;
      },
      get endCursor() {
        return edges.at(-1)?.cursor ?? null;
      },
    },
  };
}

export const isSet = (value: number | null | undefined): value is number => value !== undefined && value !== null;

interface ForwardPage<Node> {
  rows: Node[];
  hasNextPage: boolean;
  hasPreviousPage: boolean;
}

/**
 * Relay's EdgesToReturn and page flags for `rows`, the rows after the cursors in order (at least `first` + 1 and
 * `last` + 1 of them when there are as many): the first `first`, then the last `last` of those. `hasNextPage`: more
 * than `first` rows; `hasPreviousPage`: more than `last` rows, or without `last`, whether the page starts after a
 * cursor.
 */
export function firstThenLast<Node>(rows: Node[], first: number, last: number | undefined, afterCursor: boolean) {
  const firstRows = rows.slice(0, first);
  return {
    rows: last !== undefined && firstRows.length > last ? firstRows.slice(firstRows.length - last) : firstRows,
    hasNextPage: rows.length > first,
    hasPreviousPage: last !== undefined ? rows.length > last : afterCursor,
  } satisfies ForwardPage<Node>;
}

function fetchDirection(key: { direction: "asc" | "desc" }, backward: boolean): "asc" | "desc" {
  return backward ? (key.direction === "asc" ? "desc" : "asc") : key.direction;
}

/** The `ORDER BY` terms of a sort on the table aliased `alias` (reversed for a backward fetch), for hand-written SQL. */
export function orderBySql<Node>(sort: readonly SortKey<Node>[], alias: string, backward = false): string {
  return sort.map((key) => `${alias}."${key.field}" ${fetchDirection(key, backward).toUpperCase()}`).join(", ");
}

/** Keyset pagination over any Prisma model: never offsets, so inserts do not skip or repeat rows across pages. */
export function paginate<Node>(args: PageArgs, query: KeysetQuery<Node>): Promise<Page<Node>> {
  return keysetPage(
    args,
    query.sort,
    ({ after, before, backward, take }) => {
      const conditions: object[] = [query.where];
      if (after) conditions.push(keysetWhere(query.sort, after, "after"));
      if (before) conditions.push(keysetWhere(query.sort, before, "before"));
      const orderBy = query.sort.map((key) => ({ [key.field]: fetchDirection(key, backward) }));
      return Promise.resolve(query.model.findMany({ where: { AND: conditions }, orderBy, take }));
    },
    () => Promise.resolve(query.model.count({ where: query.where })),
    (error) => error instanceof Prisma.PrismaClientValidationError,
    scopeOf(query.where),
  );
}

/** Binds a value as the next `$n` parameter of a statement being written, and returns its placeholder. */
type Bind = (value: unknown) => string;

export interface SqlKeysetQuery<Node> {
  sort: readonly SortKey<Node>[];
  /** The table (its rows are the nodes), aliased `t` in `where`. */
  table: string;
  /** The select list over `t`; all its columns when omitted. */
  columns?: string;
  /** The list's filter: SQL conditions on `t`, ANDed, their values bound through `bind`. */
  where(bind: Bind): string[];
  /** The filter's parent ids, as `paginate` finds them in its `where` (`scopeOf`): cursors carry the same scope. */
  parents?: Record<string, unknown>;
}

/** PostgreSQL's data exceptions (class 22, the drivers' `code`): a cursor value the column's type cannot take. */
function isDataException(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("22");
}

/**
 * `paginate` in hand-written SQL through `ctx.sql` (db/sql.ts), for the long lists where the ORM's per-row cost
 * dominates; same cursors, same pages.
 */
export function paginateSql<Node>(sql: SqlReader, args: PageArgs, query: SqlKeysetQuery<Node>): Promise<Page<Node>> {
  const statement = (work: (bind: Bind) => string) => {
    const params: unknown[] = [];
    const text = work((value) => {
      params.push(value);
      return `$${params.length}`;
    });
    return { text, params };
  };
  const column = (key: SortKey<Node>) => `t."${key.field}"`;
  const keysetSql = (bind: Bind, values: SortValue[], side: "after" | "before") =>
    `(${query.sort
      .map((key, index) => {
        const ascending = key.direction === "asc";
        const operator = ascending === (side === "after") ? ">" : "<";
        const equal = query.sort.slice(0, index).map((previous, i) => `${column(previous)} = ${bind(values[i])}`);
        return [...equal, `${column(key)} ${operator} ${bind(values[index])}`].join(" AND ");
      })
      .map((clause) => `(${clause})`)
      .join(" OR ")})`;
  const whereSql = (conditions: string[]) => (conditions.length > 0 ? `WHERE ${conditions.join(" AND ")}` : "");
  return keysetPage(
    args,
    query.sort,
    async ({ after, before, backward, take }) => {
      const { text, params } = statement((bind) => {
        const conditions = query.where(bind);
        if (after) conditions.push(keysetSql(bind, after, "after"));
        if (before) conditions.push(keysetSql(bind, before, "before"));
        const orderBy = orderBySql(query.sort, "t", backward);
        return `SELECT ${query.columns ?? "t.*"} FROM ${query.table} t ${whereSql(conditions)} ORDER BY ${orderBy} LIMIT ${bind(take)}`;
      });
      return sql.rows<Node>(text, params);
    },
    async () => {
      const { text, params } = statement(
        (bind) => `SELECT count(*)::int AS count FROM ${query.table} t ${whereSql(query.where(bind))}`,
      );
      const [row] = await sql.rows<{ count: number }>(text, params);
      return row?.count ?? 0;
    },
    isDataException,
    scopeOf(query.parents ?? {}),
  );
}

/** True when a nested read asks only for a first page, which a batched loader can serve for many parents at once. */
export function isFirstPage(args: PageArgs): boolean {
  return !args.after && !args.before && (args.last === undefined || args.last === null);
}

/** The values of a cursor of `sort` (keyset queries written in SQL); a malformed cursor is the caller's error. */
export function cursorValues<Node>(sort: readonly SortKey<Node>[], cursor: string): SortValue[] {
  return decodeCursor(cursor, sort);
}
