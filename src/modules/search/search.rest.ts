import type { RestRoute } from "../../rest/route.ts";

const pageHitFields = /* GraphQL */ `
  fragment SearchPageFields on SearchPageResult {
    id title path score
    sections { id title path body score urls { app } }
    ancestors { title }
    urls { app }
  }
`;

export const searchRoutes: RestRoute[] = [
  {
    method: "GET",
    path: "/spaces/{spaceId}/search",
    operation: "searchSpaceContent",
    status: 200,
    result: "space.searchSpaceContent",
    document: `query searchSpaceContent($spaceId: ID!, $query: String!, $limit: Int, $page: String) {
      space(id: $spaceId) {
        searchSpaceContent(query: $query, first: $limit, after: $page) {
          totalCount pageInfo { hasNextPage endCursor } nodes { ...SearchPageFields }
        }
      }
    } ${pageHitFields}`,
  },
  {
    method: "GET",
    path: "/orgs/{organizationId}/search",
    operation: "searchOrganizationContent",
    status: 200,
    result: "organization.searchOrganizationContent",
    document: `query searchOrganizationContent($organizationId: ID!, $query: String!, $limit: Int, $page: String) {
      organization(id: $organizationId) {
        searchOrganizationContent(query: $query, first: $limit, after: $page) {
          totalCount pageInfo { hasNextPage endCursor } nodes { type id title score pages { ...SearchPageFields } }
        }
      }
    } ${pageHitFields}`,
  },
];
