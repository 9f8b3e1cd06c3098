import type { SiteSpace } from "../../db/generated/client.ts";
import { defineLoader } from "../../loaders.ts";
import { orderBySql, orderOf, type SortKey } from "../../pagination.ts";

export const siteSpaceOrder: SortKey<SiteSpace>[] = [
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
 * read, per order.
 */
export function siteSpacesInOrderBySite(sort: readonly SortKey<SiteSpace>[]) {
  return defineLoader<string, SiteSpace[]>(`siteSpacesBySite ${orderOf(sort)}`, async (ctx, siteIds) => {
    const rows = await ctx.sql.rows<SiteSpace>(
      `SELECT t.* FROM "SiteSpace" t WHERE t."siteId" = ANY($1) AND ${liveSiteSpaceSql} ORDER BY ${orderBySql(sort, "t")}`,
      [siteIds],
    );
    const bySite = new Map<string, SiteSpace[]>(siteIds.map((id) => [id, []]));
    for (const row of rows) bySite.get(row.siteId)?.push(row);
    return siteIds.map((id) => bySite.get(id) ?? []);
  });
}

/** Every live site space of each site, in the site spaces' order. */
export const siteSpacesBySiteLoader = siteSpacesInOrderBySite(siteSpaceOrder);
