import { z } from "zod";
import type { RequestContext } from "../../context.ts";
import type { Site, SiteSpace } from "../../db/generated/client.ts";
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
} from "../../list-order.ts";
import { isFirstPage, type Page, type PageArgs, pageFromRows, paginateSql, type SortKey } from "../../pagination.ts";
import { settleSiteSpaceSpaces } from "./site.access.ts";
import { liveSiteSpaceSql, siteSpaceOrder, siteSpacesInOrderBySite } from "./site-space.loaders.ts";

/** The sorts of `siteSpaces(orderBy:)`. */
export const siteSpaceListOrder: ListOrder<SiteSpace> = {
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

const siteSpaceFilterRules: FilterRules<SiteSpace, SiteSpaceFilter> = {
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
  sort: readonly SortKey<SiteSpace>[],
  filter: SiteSpaceFilter,
  defaults?: { ids: string[]; wanted: boolean },
) {
  return paginateSql<SiteSpace>(ctx.sql, page, {
    sort,
    table: `"SiteSpace"`,
    where: (bind) => {
      const conditions = [
        `t."siteId" = ${bind(siteId)}`,
        liveSiteSpaceSql,
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
  settleSpaces: boolean,
) {
  const sort = sortFor(siteSpaceListOrder, list.orderBy, siteSpaceOrder);
  const filter = parseFilter(siteSpaceFilterSchema, list.filter);
  if (!isFirstPage(page))
    return withSettledSpaces(ctx, await siteSpacePage(ctx, site.id, page, sort, filter), settleSpaces);
  const siteSpaces = await siteSpacesInOrderBySite(sort)(ctx).load(site.id);
  const matching = isFiltering(filter) ? siteSpaces.filter(filterMatcher(siteSpaceFilterRules, filter)) : siteSpaces;
  return withSettledSpaces(ctx, pageFromRows(page, sort, matching), settleSpaces);
}

/**
 * The page, its site spaces' spaces settled (site.access.ts) when the request selects them, so that each node's
 * `space` resolves at once.
 */
export async function withSettledSpaces(
  ctx: RequestContext,
  page: Page<SiteSpace>,
  settleSpaces: boolean,
): Promise<Page<SiteSpace>> {
  if (settleSpaces) {
    await settleSiteSpaceSpaces(
      ctx,
      page.edges.map((edge) => edge.node),
    );
  }
  return page;
}
