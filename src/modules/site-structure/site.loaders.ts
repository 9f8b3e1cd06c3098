import type { Site } from "../../db/generated/client.ts";
import { keyedSql, keyedText } from "../../db/sql.ts";
import { orderBySql, orderOf, type SortKey } from "../../paging/pagination.ts";
import type { RequestContext } from "../../request/context.ts";
import { byKeys, defineLoader } from "../../request/loaders.ts";

export const siteOrder: SortKey<Site>[] = [
  { field: "createdAt", direction: "asc" },
  { field: "id", direction: "asc" },
];

// The site structure loaders below feed the nested reads: hand-written SQL (db/sql.ts).

const sitesByIdSql = keyedSql((ids) => `SELECT * FROM "Site" WHERE id ${ids}`);

/** Sites by id, without access checks. */
export const siteByIdLoader = defineLoader<string, Site | null>("siteById", async (ctx, ids) => {
  const { text, keys } = keyedText(sitesByIdSql, ids);
  const rows = await ctx.sql.rows<Site>(text, [keys]);
  return byKeys(ids, rows, (row) => row.id);
});

/**
 * Every site of each organization in the given order: one statement for the first pages of a nested read, one
 * loader per order (the list's own order unless `orderBy` asks another).
 */
export function sitesInOrderByOrganization(sort: readonly SortKey<Site>[]) {
  const sql = keyedSql(
    (ids) => `SELECT * FROM "Site" t WHERE t."organizationId" ${ids} ORDER BY ${orderBySql(sort, "t")}`,
  );
  return defineLoader<string, Site[]>(`sitesByOrganization ${orderOf(sort)}`, async (ctx, orgIds) => {
    const { text, keys } = keyedText(sql, orgIds);
    const rows = await ctx.sql.rows<Site>(text, [keys]);
    const byOrganization = new Map<string, Site[]>(orgIds.map((id) => [id, []]));
    for (const row of rows) byOrganization.get(row.organizationId)?.push(row);
    return orgIds.map((id) => byOrganization.get(id) ?? []);
  });
}

export const sitesByOrganizationLoader = sitesInOrderByOrganization(siteOrder);

/** Site spaces per site, not counting those whose space is deleted (REST: `siteSpaces`). */
export const siteSpaceCountLoader = defineLoader<string, number>("siteSpaceCount", async (ctx, siteIds) => {
  const rows = await ctx.prisma.siteSpace.groupBy({
    by: ["siteId"],
    where: { siteId: { in: [...siteIds] }, space: { deletedAt: null } },
    _count: { _all: true },
  });
  const counts = new Map(rows.map((row) => [row.siteId, row._count._all]));
  return siteIds.map((id) => counts.get(id) ?? 0);
});

/** The site of a row the caller has read (its parent field, `section.site`): readable wherever its rows are. */
export async function parentSite(ctx: RequestContext, siteId: string): Promise<Site> {
  const site = await siteByIdLoader(ctx).load(siteId);
  if (!site) throw new Error(`Site ${siteId} is missing`);
  return site;
}
