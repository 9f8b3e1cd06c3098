import { listRoute } from "../../rest/list-route.ts";
import type { RestRoute } from "../../rest/route.ts";

const pageHitFields = /* GraphQL */ `
  fragment SearchPageFields on SearchPageResult {
    id: pageId title path score
    sections { id: anchor title path body score urls { app } }
    ancestors { title }
    urls { app }
  }
`;

export const searchRoutes: RestRoute[] = [
  listRoute({
    path: "/spaces/{spaceId}/search",
    operation: "searchSpaceContent",
    variables: "$spaceId: ID!, $query: String!",
    fields: ["space(id: $spaceId)", "searchSpaceContent(query: $query)"],
    nodes: "...SearchPageFields",
    fragments: pageHitFields,
  }),
  listRoute({
    path: "/orgs/{organizationId}/search",
    operation: "searchOrganizationContent",
    variables: "$organizationId: ID!, $query: String!",
    fields: ["organization(id: $organizationId)", "searchOrganizationContent(query: $query)"],
    nodes: "type id: spaceId title score pages { ...SearchPageFields }",
    fragments: pageHitFields,
  }),
];
