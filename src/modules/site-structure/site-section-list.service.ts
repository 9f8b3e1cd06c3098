import { z } from "zod";
import type { Site, SiteSection } from "../../db/generated/client.ts";
import {
  containsSchema,
  createdRangeRules,
  type FilterRules,
  filterMatcher,
  filterWhere,
  isFiltering,
  type ListArgs,
  type ListOrder,
  parseFilter,
  sortFor,
  timeRangeSchemas,
} from "../../paging/list-order.ts";
import { pageFromRows } from "../../paging/memory-pagination.ts";
import { isFirstPage, type PageArgs, paginate } from "../../paging/pagination.ts";
import type { RequestContext } from "../../request/context.ts";
import { readableSite } from "./site.access.ts";
import { structureReads } from "./structure-reads.ts";
import { siteSectionOrder } from "./structure-sql.ts";

/** The sorts of `sections(orderBy:)`. */
export const sectionListOrder: ListOrder<SiteSection> = {
  fields: { POSITION: "position", TITLE: "title", CREATED_AT: "createdAt" },
  tiebreak: "id",
};

const { createdAfter, createdBefore } = timeRangeSchemas("sections");
export const sectionFilterSchema = z.strictObject({
  titleContains: containsSchema.nullish().describe("Only sections whose title contains this text, ignoring case"),
  createdAfter,
  createdBefore,
});

const sectionFilterRules: FilterRules<SiteSection, z.infer<typeof sectionFilterSchema>> = {
  titleContains: { contains: "title" },
  ...createdRangeRules,
};

export async function listSiteSections(
  ctx: RequestContext,
  organizationId: string,
  siteId: string,
  page: PageArgs,
  shareKey: string | null | undefined,
  list: ListArgs = {},
) {
  const site = await readableSite(ctx, organizationId, siteId, shareKey);
  return sectionPage(ctx, site, page, list, false);
}

/** First pages of nested `Site.sections` come from one statement for all sites. */
export function sectionsOfSite(ctx: RequestContext, site: Site, page: PageArgs, list: ListArgs = {}) {
  return sectionPage(ctx, site, page, list, true);
}

/**
 * A page of a site's sections. Nested first pages read every section of all sites in one statement (per order)
 * and filter them in memory, so ordering or filtering them adds no statement per site.
 */
async function sectionPage(ctx: RequestContext, site: Site, page: PageArgs, list: ListArgs, batched: boolean) {
  const sort = sortFor(sectionListOrder, list.orderBy, siteSectionOrder);
  const filter = parseFilter(sectionFilterSchema, list.filter);
  if (batched && isFirstPage(page)) {
    const sections = await structureReads(ctx).sectionsOfSite(sort).load(site.id);
    return pageFromRows(
      page,
      sort,
      isFiltering(filter) ? sections.filter(filterMatcher(sectionFilterRules, filter)) : sections,
    );
  }
  return paginate<SiteSection>(page, {
    sort,
    where: { siteId: site.id, AND: filterWhere(sectionFilterRules, filter) },
    model: ctx.prisma.siteSection,
  });
}
