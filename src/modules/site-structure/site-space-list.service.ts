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
import { structureReads } from "./structure-reads.ts";
import type { SiteSpaceSettling } from "./structure-selection.ts";
import { liveSiteSpaceProbedSql, type SiteSpaceRow, siteSpaceColumnsSql, siteSpaceOrder } from "./structure-sql.ts";

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
  const siteSpaces = await structureReads(ctx).siteSpacesOfSite(sort, filtersOnCreated).load(site.id);
  const matching = isFiltering(filter) ? siteSpaces.filter(filterMatcher(siteSpaceFilterRules, filter)) : siteSpaces;
  return settledPage(ctx, pageFromRows(page, sort, matching), settling);
}

/** The page, what its items select settled together (`SiteSpaceSettling`). */
export async function settledPage(
  ctx: RequestContext,
  page: Page<SiteSpaceRow>,
  settling: SiteSpaceSettling,
): Promise<Page<SiteSpaceRow>> {
  await structureReads(ctx).settle(
    page.edges.map((edge) => edge.node),
    settling,
  );
  return page;
}
