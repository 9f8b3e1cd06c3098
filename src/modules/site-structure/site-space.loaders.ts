import type { SiteSpace } from "../../db/generated/client.ts";
import { type KeyedSql, keyedText, selectedColumns } from "../../db/sql.ts";
import { orderBySql, orderOf, type SortKey } from "../../paging/pagination.ts";
import { defineLoader } from "../../request/loaders.ts";

/**
 * A site space as reads return it: `createdAt` only when the list's order or filter uses it. No field or REST body
 * shows it, and a timestamp costs a Date per row that lives as long as the request: on the nested read's 2000 site
 * spaces, a sixth of its CPU with the collector's share (measured beside `npm run bench`).
 */
export type SiteSpaceRow = Omit<SiteSpace, "createdAt"> & { createdAt?: Date };

const columnsButCreatedAt = selectedColumns<Omit<SiteSpace, "createdAt">>("t", {
  id: true,
  siteId: true,
  sectionId: true,
  spaceId: true,
  path: true,
  title: true,
  condition: true,
  position: true,
});

/** The select list of a site-space read on `t`, in the given order, with `createdAt` when it or the filter uses it. */
export function siteSpaceColumnsSql(sort: readonly SortKey<SiteSpaceRow>[], filtersOnCreated: boolean): string {
  const withCreatedAt = filtersOnCreated || sort.some((key) => key.field === "createdAt");
  return withCreatedAt ? `${columnsButCreatedAt}, t."createdAt"` : columnsButCreatedAt;
}

export const siteSpaceOrder: SortKey<SiteSpaceRow>[] = [
  { field: "position", direction: "asc" },
  { field: "id", direction: "asc" },
];

export const siteSpaceOrderSql = orderBySql(siteSpaceOrder, "t");

/** Site spaces whose space is deleted are hidden everywhere: every read filters on the live space. */
export const liveSiteSpace = { space: { deletedAt: null } } as const;

/** `liveSiteSpace` for the hand-written reads (db/sql.ts), on the site space aliased `t`. */
const liveSiteSpaceSql = `EXISTS (SELECT 1 FROM "Space" s WHERE s.id = t."spaceId" AND s."deletedAt" IS NULL)`;

/**
 * The same check probing each row's space by its key, for reads of one site's site spaces (its list pages, their
 * count, its defaults, site spaces by id): `OFFSET 0` keeps PostgreSQL from turning the EXISTS into a join. As a
 * join it hashed the whole Space table, every tenant's spaces, for each statement, three statements per list request.
 * Probes grow with the rows read, the hash with the table, which pays for reads over many sites (the nested read's
 * 2000 site spaces). Both measured in docs/performance.md.
 */
export const liveSiteSpaceProbedSql = `EXISTS (SELECT 1 FROM "Space" s WHERE s.id = t."spaceId" AND s."deletedAt" IS NULL OFFSET 0)`;

/**
 * A read of live site spaces by site (`$1`), written once with where its sites match and its liveness check: for
 * one site its `= $1` text probes the spaces, for several its `= ANY($1)` text joins them (see above).
 */
export function liveSiteSpacesBySiteSql(write: (sitesMatch: string, live: string) => string): KeyedSql {
  return { one: write("= $1", liveSiteSpaceProbedSql), many: write("= ANY($1)", liveSiteSpaceSql) };
}

/**
 * Every live site space of each site (all scopes) in the given order: one statement for all sites of a nested
 * read, per order (and per whether a filter reads `createdAt`).
 */
export function siteSpacesInOrderBySite(sort: readonly SortKey<SiteSpaceRow>[], filtersOnCreated: boolean) {
  const columns = siteSpaceColumnsSql(sort, filtersOnCreated);
  const sql = liveSiteSpacesBySiteSql(
    (sites, live) => `SELECT ${columns} FROM "SiteSpace" t
        WHERE t."siteId" ${sites} AND ${live} ORDER BY ${orderBySql(sort, "t")}`,
  );
  return defineLoader<string, SiteSpaceRow[]>(`siteSpacesBySite ${orderOf(sort)} ${columns}`, async (ctx, siteIds) => {
    const { text, keys } = keyedText(sql, siteIds);
    const rows = await ctx.sql.rows<SiteSpaceRow>(text, [keys]);
    const bySite = new Map<string, SiteSpaceRow[]>(siteIds.map((id) => [id, []]));
    for (const row of rows) bySite.get(row.siteId)?.push(row);
    return siteIds.map((id) => bySite.get(id) ?? []);
  });
}

/** Every live site space of each site, in the site spaces' order. */
export const siteSpacesBySiteLoader = siteSpacesInOrderBySite(siteSpaceOrder, false);
