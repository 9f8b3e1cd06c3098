import type { RequestContext } from "../../context.ts";
import type { SiteSection } from "../../db/generated/client.ts";
import { byKeys, defineLoader } from "../../loaders.ts";
import { orderBySql, orderOf, type SortKey } from "../../pagination.ts";
import { sectionGroupsBySiteLoader } from "./section-group.loaders.ts";
import { siteByIdLoader } from "./site.loaders.ts";
import { siteSpacesBySectionLoader, siteSpacesBySiteLoader } from "./site-space.loaders.ts";

export const siteSectionOrder: SortKey<SiteSection>[] = [
  { field: "position", direction: "asc" },
  { field: "id", direction: "asc" },
];

// The section loaders feed the nested reads: hand-written SQL (db/sql.ts).

/** Every section of each site in the given order: one statement for all sites of a nested read, per order. */
export function sectionsInOrderBySite(sort: readonly SortKey<SiteSection>[]) {
  return defineLoader<string, SiteSection[]>(`sectionsBySite ${orderOf(sort)}`, async (ctx, siteIds) => {
    const rows = await ctx.sql.rows<SiteSection>(
      `SELECT * FROM "SiteSection" t WHERE t."siteId" = ANY($1) ORDER BY ${orderBySql(sort, "t")}`,
      [siteIds],
    );
    const bySite = new Map<string, SiteSection[]>(siteIds.map((id) => [id, []]));
    for (const row of rows) bySite.get(row.siteId)?.push(row);
    return siteIds.map((id) => bySite.get(id) ?? []);
  });
}

/** Every section of each site, in the sections' order. */
export const sectionsBySiteLoader = sectionsInOrderBySite(siteSectionOrder);

/** Sections by id, without access checks. */
export const sectionByIdLoader = defineLoader<string, SiteSection | null>("siteSectionById", async (ctx, ids) => {
  const rows = await ctx.sql.rows<SiteSection>(`SELECT * FROM "SiteSection" WHERE id = ANY($1)`, [ids]);
  return byKeys(ids, rows, (row) => row.id);
});

/**
 * The default site space of every scope of each site (the root and each section): the scope's pointer while that
 * site space is live, else its first live one. Deleting a space hides its site spaces without touching the
 * pointers, so this stays right through a delete and a restore. Built from the batched loaders above.
 */
export const siteSpaceDefaultsLoader = defineLoader<string, Set<string>>("siteSpaceDefaults", (ctx, siteIds) =>
  Promise.all(
    siteIds.map(async (siteId) => {
      const [site, sections, siteSpaces] = await Promise.all([
        siteByIdLoader(ctx).load(siteId),
        sectionsBySiteLoader(ctx).load(siteId),
        siteSpacesBySiteLoader(ctx).load(siteId),
      ]);
      const pointers = new Map<string | null, string | null>([
        [null, site?.defaultSiteSpaceId ?? null],
        ...sections.map((section) => [section.id, section.defaultSiteSpaceId] as const),
      ]);
      const byScope = new Map<string | null, string[]>();
      for (const siteSpace of siteSpaces) {
        byScope.set(siteSpace.sectionId, [...(byScope.get(siteSpace.sectionId) ?? []), siteSpace.id]);
      }
      const defaults = new Set<string>();
      for (const [scope, ids] of byScope) {
        const pointer = pointers.get(scope);
        defaults.add(pointer && ids.includes(pointer) ? pointer : (ids[0] as string));
      }
      return defaults;
    }),
  ),
);

/**
 * Forgets what this request loaded about a site's structure (the site row holds default pointers): a write's
 * result is read back after the write, and the access check before it already loaded the site.
 */
export function forgetStructure(ctx: RequestContext, siteId: string): void {
  siteByIdLoader(ctx).clear(siteId);
  sectionByIdLoader(ctx).clearAll();
  // Every order's loader (`orderBy` of nested reads), the lists' own among them.
  for (const [name, loader] of ctx.loaders) {
    if (name.startsWith("sectionsBySite ") || name.startsWith("siteSpacesBySite ")) loader.clear(siteId);
  }
  sectionGroupsBySiteLoader(ctx).clear(siteId);
  siteSpacesBySectionLoader(ctx).clearAll();
  siteSpaceDefaultsLoader(ctx).clear(siteId);
}
