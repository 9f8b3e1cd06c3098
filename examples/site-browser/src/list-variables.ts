import type { OrganizationSitesQuery, OrganizationSitesQueryVariables } from "@docs-management-gateway/sdk";

/** What the sites list shows: its ordering, filters and page size, as the form sets them. */
export interface SiteListView {
  order: "oldest" | "newest";
  /** Only sites whose title contains this, ignoring case; empty: any title. */
  title: string;
  /** Only published (true) or unpublished (false) sites; null: both. */
  published: boolean | null;
  pageSize: number;
}

type SitesConnection = NonNullable<NonNullable<OrganizationSitesQuery["organization"]>["sites"]>;
type PageInfo = SitesConnection["pageInfo"];

/** A step from the page shown, in the order shown. */
export interface PageMove {
  direction: "next" | "previous";
  from: PageInfo;
}

/** How each choice of the form orders sites: the list's own `orderBy` (the id breaks ties on the server). */
const orders: Record<SiteListView["order"], NonNullable<OrganizationSitesQueryVariables["orderBy"]>> = {
  oldest: [{ field: "CREATED_AT", direction: "ASC" }],
  newest: [{ field: "CREATED_AT", direction: "DESC" }],
};

/**
 * The variables of one page of sites: the only place that knows how ordering, filters and paging reach the schema.
 * The server orders and filters (`orderBy`, `filter`); the page moves forward with `after` and back with `before`.
 */
export function siteListVariables(
  organizationId: string,
  view: SiteListView,
  move?: PageMove,
): OrganizationSitesQueryVariables {
  const listed = {
    organizationId,
    orderBy: orders[view.order],
    filter: { titleContains: view.title.trim() || null, published: view.published },
  };
  if (!move) return { ...listed, first: view.pageSize };
  return move.direction === "next"
    ? { ...listed, first: view.pageSize, after: move.from.endCursor }
    : { ...listed, last: view.pageSize, before: move.from.startCursor };
}

/** A page of sites as the server ordered it, and whether there is one before and after it. */
export function shownPage(sites: SitesConnection) {
  return {
    nodes: sites.nodes,
    hasNext: sites.pageInfo.hasNextPage,
    hasPrevious: sites.pageInfo.hasPreviousPage,
    totalCount: sites.totalCount,
    pageInfo: sites.pageInfo,
  };
}
