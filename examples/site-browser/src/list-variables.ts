import type { OrganizationSitesQuery, OrganizationSitesQueryVariables } from "docs-management-gateway/sdk";

/** What the sites list shows: its ordering, filters and page size, as the form sets them. */
export interface SiteListView {
  order: "oldest" | "newest";
  /** Only sites whose title contains this, ignoring case; empty: any title. */
  title: string;
  /** Only published (true) or unpublished (false) sites; null: both. */
  published: boolean | null;
  pageSize: number;
}

type SitesConnection = NonNullable<OrganizationSitesQuery["organization"]>["sites"];
type PageInfo = SitesConnection["pageInfo"];

/** A step from the page shown, in the order shown. */
export interface PageMove {
  direction: "next" | "previous";
  from: PageInfo;
}

/**
 * The variables of one page of sites: the only place that knows how ordering, filters and paging reach the schema.
 * Today sites come oldest first and `sites` has no ordering argument, so "newest first" reads the list from its end
 * (Relay's `last`/`before`) and `shownPage` reverses each page. When `orderBy`/`filter` land, send
 * `orderBy: [{ field: "createdAt", direction: "DESC" }]` and `filter: { titleContains, published }` here, always
 * page forward, and drop the reversal (see README.md).
 */
export function siteListVariables(
  organizationId: string,
  view: SiteListView,
  move?: PageMove,
): OrganizationSitesQueryVariables {
  const filters = { title: view.title.trim() || null, published: view.published };
  const forward = (view.order === "oldest") === ((move?.direction ?? "next") === "next");
  if (!move) return { organizationId, ...filters, ...(forward ? { first: view.pageSize } : { last: view.pageSize }) };
  return forward
    ? { organizationId, ...filters, first: view.pageSize, after: move.from.endCursor }
    : { organizationId, ...filters, last: view.pageSize, before: move.from.startCursor };
}

/** A page of sites in the order shown, and whether there is one before and after it in that order. */
export function shownPage(view: SiteListView, sites: SitesConnection) {
  const newestFirst = view.order === "newest";
  return {
    nodes: newestFirst ? [...sites.nodes].reverse() : sites.nodes,
    hasNext: newestFirst ? sites.pageInfo.hasPreviousPage : sites.pageInfo.hasNextPage,
    hasPrevious: newestFirst ? sites.pageInfo.hasNextPage : sites.pageInfo.hasPreviousPage,
    totalCount: sites.totalCount,
    pageInfo: sites.pageInfo,
  };
}
