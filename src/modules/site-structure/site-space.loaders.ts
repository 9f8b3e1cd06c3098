import type { SiteSpace } from "../../db/generated/client.ts";
import { keyedSql, keyedText, selectedColumns } from "../../db/sql.ts";
import { defineLoader } from "../../loaders.ts";
import { orderBySql, orderOf, type SortKey } from "../../pagination.ts";

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
export const liveSiteSpaceSql = `EXISTS (SELECT 1 FROM "Space" s WHERE s.id = t."spaceId" AND s."deletedAt" IS NULL)`;

/**
 * Every live site space of each site (all scopes) in the given order: one statement for all sites of a nested
 * read, per order (and per whether a filter reads `createdAt`).
 */
export function siteSpacesInOrderBySite(sort: readonly SortKey<SiteSpaceRow>[], filtersOnCreated: boolean) {
  const columns = siteSpaceColumnsSql(sort, filtersOnCreated);
  const sql = keyedSql(
    (ids) => `SELECT ${columns} FROM "SiteSpace" t
        WHERE t."siteId" ${ids} AND ${liveSiteSpaceSql} ORDER BY ${orderBySql(sort, "t")}`,
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
