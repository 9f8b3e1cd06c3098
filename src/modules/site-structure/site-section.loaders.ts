import type { SiteSection } from "../../db/generated/client.ts";
import { keyedSql, keyedText } from "../../db/sql.ts";
import { orderBySql, orderOf, type SortKey } from "../../paging/pagination.ts";
import type { RequestContext } from "../../request/context.ts";
import { byKeys, defineLoader } from "../../request/loaders.ts";
import { sectionGroupsBySiteLoader } from "./section-group.loaders.ts";
import { siteByIdLoader } from "./site.loaders.ts";
import { liveSiteSpacesBySiteSql, siteSpaceOrderSql } from "./site-space.loaders.ts";

export const siteSectionOrder: SortKey<SiteSection>[] = [
  { field: "position", direction: "asc" },
  { field: "id", direction: "asc" },
];

// The section loaders feed the nested reads: hand-written SQL (db/sql.ts).

/** Every section of each site in the given order: one statement for all sites of a nested read, per order. */
export function sectionsInOrderBySite(sort: readonly SortKey<SiteSection>[]) {
  const sql = keyedSql(
    (ids) => `SELECT * FROM "SiteSection" t WHERE t."siteId" ${ids} ORDER BY ${orderBySql(sort, "t")}`,
  );
  return defineLoader<string, SiteSection[]>(`sectionsBySite ${orderOf(sort)}`, async (ctx, siteIds) => {
    const { text, keys } = keyedText(sql, siteIds);
    const rows = await ctx.sql.rows<SiteSection>(text, [keys]);
    const bySite = new Map<string, SiteSection[]>(siteIds.map((id) => [id, []]));
    for (const row of rows) bySite.get(row.siteId)?.push(row);
    return siteIds.map((id) => bySite.get(id) ?? []);
  });
}

/** Every section of each site, in the sections' order. */
export const sectionsBySiteLoader = sectionsInOrderBySite(siteSectionOrder);

const sectionsByIdSql = keyedSql((ids) => `SELECT * FROM "SiteSection" WHERE id ${ids}`);

/** Sections by id, without access checks. */
export const sectionByIdLoader = defineLoader<string, SiteSection | null>("siteSectionById", async (ctx, ids) => {
  const { text, keys } = keyedText(sectionsByIdSql, ids);
  const rows = await ctx.sql.rows<SiteSection>(text, [keys]);
  return byKeys(ids, rows, (row) => row.id);
});

/** The section a site space sits in (its `section` field); null at the site root. */
export async function parentSection(ctx: RequestContext, sectionId: string | null): Promise<SiteSection | null> {
  return sectionId ? sectionByIdLoader(ctx).load(sectionId) : null;
}

// A pointer counts in its own scope only: the section's id, or the site's for its root.
const siteSpaceDefaultsSql = liveSiteSpacesBySiteSql(
  (sites, live) => `WITH pointer AS (
       SELECT id AS scope, "defaultSiteSpaceId" AS id FROM "Site" WHERE id ${sites}
       UNION ALL SELECT id, "defaultSiteSpaceId" FROM "SiteSection" WHERE "siteId" ${sites}
     )
     SELECT DISTINCT ON (t."siteId", t."sectionId") t."siteId", t.id FROM "SiteSpace" t
     WHERE t."siteId" ${sites} AND ${live}
     ORDER BY t."siteId", t."sectionId",
       (COALESCE(t."sectionId", t."siteId"), t.id) IN (SELECT scope, id FROM pointer) DESC, ${siteSpaceOrderSql}`,
);

/**
 * The default site space of every scope of each site (the root and each section): the scope's pointer while that
 * site space is live, else its first live one. Deleting a space hides its site spaces without touching the
 * pointers, so this stays right through a delete and a restore. The statement answers one row per scope: a list of
 * a thousand site spaces asking which are defaults does not read the whole site again.
 */
export const siteSpaceDefaultsLoader = defineLoader<string, Set<string>>("siteSpaceDefaults", async (ctx, siteIds) => {
  const { text, keys } = keyedText(siteSpaceDefaultsSql, siteIds);
  const rows = await ctx.sql.rows<{ siteId: string; id: string }>(text, [keys]);
  const bySite = new Map<string, Set<string>>(siteIds.map((id) => [id, new Set()]));
  for (const row of rows) bySite.get(row.siteId)?.add(row.id);
  return siteIds.map((id) => bySite.get(id) ?? new Set());
});

/**
 * Forgets what this request loaded about a site's structure (the site row holds default pointers): a write's
 * result is read back after the write, and the access check before it already loaded the site.
 */
export function forgetStructure(ctx: RequestContext, siteId: string): void {
  siteByIdLoader(ctx).clear(siteId);
  sectionByIdLoader(ctx).clearAll();
  // Every by-site loader: each order of nested reads (the lists' own among them) and the sections' groupings.
  for (const [name, loader] of ctx.loaders) {
    if (name.startsWith("sectionsBySite ") || name.startsWith("siteSpacesBySite ")) loader.clear(siteId);
  }
  sectionGroupsBySiteLoader(ctx).clear(siteId);
  siteSpaceDefaultsLoader(ctx).clear(siteId);
}
