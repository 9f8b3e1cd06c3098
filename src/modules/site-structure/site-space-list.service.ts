import { z } from "zod";
import type { Site } from "../../db/generated/client.ts";
import {
  containsSchema,
  createdRangeRules,
  type FilterRules,
  filterMatcher,
  filterSql,
  isFiltering,
  type ListArgs,
  type ListOrder,
  parseFilter,
  sortFor,
  timeRangeSchemas,
} from "../../paging/list-order.ts";
import { pageFromRows } from "../../paging/memory-pagination.ts";
import { isFirstPage, type Page, type PageArgs, paginateSql, type SortKey } from "../../paging/pagination.ts";
import type { RequestContext } from "../../request/context.ts";
import { defineSettled, loadedByKey } from "../../request/loaders.ts";
import { type SpaceSettling, settleSiteSpaceSpaces } from "./site.access.ts";
import { siteSpaceDefaultsLoader } from "./site-section.loaders.ts";
import {
  liveSiteSpaceProbedSql,
  type SiteSpaceRow,
  siteSpaceColumnsSql,
  siteSpaceOrder,
  siteSpacesInOrderBySite,
} from "./site-space.loaders.ts";
import { settleSiteSpaceUrls } from "./urls.ts";

/**
 * What a page of site spaces settles for its items, by the fields they select (site-space.graphql.ts): each item's
 * `space` (and `title`), `default` and `urls` then answer at once instead of through a promise per item.
 */
export interface SiteSpaceSettling {
  spaces: SpaceSettling;
  defaults: boolean;
  urls: boolean;
}

/** The sorts of `siteSpaces(orderBy:)`. */
export const siteSpaceListOrder: ListOrder<SiteSpaceRow> = {
  fields: { POSITION: "position", PATH: "path", CREATED_AT: "createdAt" },
  tiebreak: "id",
};

const { createdAfter, createdBefore } = timeRangeSchemas("site spaces");
export const siteSpaceFilterSchema = z.strictObject({
  pathContains: containsSchema.nullish().describe("Only site spaces whose path contains this text, ignoring case"),
  createdAfter,
  createdBefore,
});

type SiteSpaceFilter = z.infer<typeof siteSpaceFilterSchema>;

const siteSpaceFilterRules: FilterRules<SiteSpaceRow, SiteSpaceFilter> = {
  pathContains: { contains: "path" },
  ...createdRangeRules,
};

/**
 * A page of a site's live site spaces, optionally only its defaults (or only the others). A page holds up to a
 * thousand: hand-written SQL (`paginateSql`).
 */
export function siteSpacePage(
  ctx: RequestContext,
  siteId: string,
  page: PageArgs,
  sort: readonly SortKey<SiteSpaceRow>[],
  filter: SiteSpaceFilter,
  defaults?: { ids: string[]; wanted: boolean },
) {
  return paginateSql<SiteSpaceRow>(ctx.sql, page, {
    sort,
    table: `"SiteSpace"`,
    // The filter runs in SQL here: only the order decides whether rows carry `createdAt`.
    columns: siteSpaceColumnsSql(sort, false),
    parents: { siteId },
    where: (bind) => {
      const conditions = [
        `t."siteId" = ${bind(siteId)}`,
        liveSiteSpaceProbedSql,
        ...filterSql(siteSpaceFilterRules, filter, bind),
      ];
      if (defaults) conditions.push(`${defaults.wanted ? "" : "NOT "}t.id = ANY(${bind(defaults.ids)})`);
      return conditions;
    },
  });
}

/**
 * First pages of nested `Site.siteSpaces` come from one statement for all sites (per order), filtered in memory:
 * ordering or filtering them adds no statement per site.
 */
export async function siteSpacesOfSite(
  ctx: RequestContext,
  site: Site,
  page: PageArgs,
  list: ListArgs,
  settling: SiteSpaceSettling,
) {
  const sort = sortFor(siteSpaceListOrder, list.orderBy, siteSpaceOrder);
  const filter = parseFilter(siteSpaceFilterSchema, list.filter);
  if (!isFirstPage(page)) return settledPage(ctx, await siteSpacePage(ctx, site.id, page, sort, filter), settling);
  const filtersOnCreated = Boolean(filter.createdAfter ?? filter.createdBefore);
  const siteSpaces = await siteSpacesInOrderBySite(sort, filtersOnCreated)(ctx).load(site.id);
  const matching = isFiltering(filter) ? siteSpaces.filter(filterMatcher(siteSpaceFilterRules, filter)) : siteSpaces;
  return settledPage(ctx, pageFromRows(page, sort, matching), settling);
}

/** The page, what its items select settled together (`SiteSpaceSettling`). */
export async function settledPage(
  ctx: RequestContext,
  page: Page<SiteSpaceRow>,
  settling: SiteSpaceSettling,
): Promise<Page<SiteSpaceRow>> {
  const rows = page.edges.map((edge) => edge.node);
  await Promise.all([
    settling.spaces !== "none" && settleSiteSpaceSpaces(ctx, rows, settling.spaces),
    settling.defaults && settleDefaultFlags(ctx, rows),
    settling.urls && settleSiteSpaceUrls(ctx, rows),
  ]);
  return page;
}

/** Default flags settled with their page, by row. */
const settledDefaultFlags = defineSettled<SiteSpaceRow, boolean>();

async function settleDefaultFlags(ctx: RequestContext, siteSpaces: readonly SiteSpaceRow[]): Promise<void> {
  const siteIds = [...new Set(siteSpaces.map((siteSpace) => siteSpace.siteId))];
  const bySite = loadedByKey(siteIds, await siteSpaceDefaultsLoader(ctx).loadMany(siteIds));
  for (const siteSpace of siteSpaces) {
    const defaults = bySite.get(siteSpace.siteId);
    if (defaults) settledDefaultFlags.set(ctx, siteSpace, defaults.has(siteSpace.id));
  }
}

/** Whether a site space is the default of its scope (its section, or the site root); batched over sites. */
export function isDefaultSiteSpace(ctx: RequestContext, siteSpace: SiteSpaceRow): Promise<boolean> | boolean {
  const settled = settledDefaultFlags.get(ctx, siteSpace);
  if (settled !== undefined) return settled;
  return siteSpaceDefaultsLoader(ctx)
    .load(siteSpace.siteId)
    .then((defaults) => defaults.has(siteSpace.id));
}
