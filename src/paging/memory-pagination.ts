import {
  connectionPage,
  decodeCursor,
  firstThenLast,
  isSet,
  type Page,
  type PageArgs,
  pageSize,
  type SortKey,
  type SortValue,
  scopeOf,
} from "./pagination.ts";

/*
 * Pages of lists already in memory (a batched loader's rows for many parents, lists computed in memory), with the
 * same cursors and page flags as the keyset pages `pagination.ts` reads from the database.
 */

function compareSortValues(a: SortValue, b: SortValue): number {
  const left = a instanceof Date ? a.getTime() : a;
  const right = b instanceof Date ? b.getTime() : b;
  return left < right ? -1 : left > right ? 1 : 0;
}

/** Where a row is in the given order against a cursor position: 1 after it, -1 before it, 0 the cursor's own row. */
function sideOfCursor<Node>(sort: readonly SortKey<Node>[], node: Node, values: SortValue[]): number {
  for (const [index, key] of sort.entries()) {
    const order = compareSortValues(node[key.field] as SortValue, values[index] as SortValue);
    if (order !== 0) return key.direction === "asc" ? order : -order;
  }
  return 0;
}

/** Whether a row comes after the cursor position in the given order. */
function isAfterCursor<Node>(sort: readonly SortKey<Node>[], node: Node, values: SortValue[]): boolean {
  return sideOfCursor(sort, node, values) > 0;
}

/**
 * A page (forward: `first`, `after`, then `last` of those) over rows already in memory and sorted in the given
 * order (batched nested reads, lists computed in memory, keyset queries in SQL), with the same cursors as
 * `paginate`. `totalCount` is given when the rows are only those the query fetched.
 */
export function pageFromRows<Node>(
  args: PageArgs,
  sort: readonly SortKey<Node>[],
  rows: Node[],
  totalCount = rows.length,
): Page<Node> {
  const size = pageSize(args.first);
  // `last` alone (a backward page) is not served from memory: callers send it to `paginate`.
  const last = isSet(args.first) && isSet(args.last) ? pageSize(args.last, "last") : undefined;
  const after = args.after ? decodeCursor(args.after, sort) : undefined;
  const remaining = after ? rows.filter((node) => isAfterCursor(sort, node, after)) : rows;
  const page = firstThenLast(remaining, size, last, Boolean(after));
  return connectionPage(sort, page, totalCount);
}

/**
 * A page of a whole list already in memory and sorted in the given order (a section's site spaces, read with every
 * section of the site), for every Relay argument in both directions, with the same cursors as `paginate`. `parents`
 * scopes its cursors as `paginate`'s filter would (a cursor of another parent's list is refused).
 */
export function pageOfList<Node>(
  args: PageArgs,
  sort: readonly SortKey<Node>[],
  rows: Node[],
  parents: Record<string, unknown>,
): Page<Node> {
  const scope = scopeOf(parents);
  const after = args.after ? decodeCursor(args.after, sort, scope) : undefined;
  const before = args.before ? decodeCursor(args.before, sort, scope) : undefined;
  const between =
    after || before
      ? rows.filter(
          (node) =>
            (!after || sideOfCursor(sort, node, after) > 0) && (!before || sideOfCursor(sort, node, before) < 0),
        )
      : rows;
  if (isSet(args.last) && !isSet(args.first)) {
    const size = pageSize(args.last, "last");
    const page = {
      rows: size === 0 ? [] : between.slice(-size),
      hasNextPage: Boolean(args.before),
      hasPreviousPage: between.length > size,
    };
    return connectionPage(sort, page, rows.length, scope);
  }
  const last = isSet(args.last) ? pageSize(args.last, "last") : undefined;
  return connectionPage(sort, firstThenLast(between, pageSize(args.first), last, Boolean(after)), rows.length, scope);
}
