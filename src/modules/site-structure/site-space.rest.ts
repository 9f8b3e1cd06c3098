import { listRoute } from "../../rest/list-route.ts";
import type { RestRoute } from "../../rest/route.ts";
import { siteSpaceFields } from "./fragments.ts";

const site = "/orgs/{organizationId}/sites/{siteId}";

export const siteSpaceRoutes: RestRoute[] = [
  listRoute({
    path: `${site}/site-spaces`,
    operation: "listSiteSpaces",
    variables: "$organizationId: ID!, $siteId: ID!, $shareKey: String, $default: Boolean",
    fields: ["siteSpaces(organizationId: $organizationId, siteId: $siteId, shareKey: $shareKey, default: $default)"],
    nodes: "...SiteSpaceFields",
    fragments: siteSpaceFields,
  }),
  {
    method: "POST",
    path: `${site}/site-spaces`,
    operation: "addSpaceToSite",
    status: 201,
    result: "createSiteSpace.siteSpace",
    document: `mutation addSpaceToSite($input: CreateSiteSpaceInput!) {
      createSiteSpace(input: $input) { siteSpace { ...SiteSpaceFields } }
    } ${siteSpaceFields}`,
  },
  {
    method: "DELETE",
    path: `${site}/site-spaces/{siteSpaceId}`,
    operation: "deleteSiteSpaceById",
    status: 204,
    document: `mutation deleteSiteSpaceById($organizationId: ID!, $siteId: ID!, $siteSpaceId: ID!) {
      deleteSiteSpace(input: { organizationId: $organizationId, siteId: $siteId, siteSpaceId: $siteSpaceId }) { deletedId }
    }`,
  },
  {
    method: "PATCH",
    path: `${site}/site-spaces/{siteSpaceId}`,
    operation: "updateSiteSpaceById",
    status: 200,
    result: "updateSiteSpace.siteSpace",
    document: `mutation updateSiteSpaceById($input: UpdateSiteSpaceInput!) {
      updateSiteSpace(input: $input) {
        siteSpace {
          ...SiteSpaceFields
        }
      }
    } ${siteSpaceFields}`,
  },
  {
    method: "POST",
    path: `${site}/site-spaces/{siteSpaceId}/move`,
    operation: "moveSiteSpace",
    status: 200,
    result: "moveSiteSpace.siteSpace",
    document: `mutation moveSiteSpace($input: MoveSiteSpaceInput!) {
      moveSiteSpace(input: $input) {
        siteSpace { ...SiteSpaceFields }
      }
    } ${siteSpaceFields}`,
  },
];
