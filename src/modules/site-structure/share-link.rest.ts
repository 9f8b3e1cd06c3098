import { listRoute } from "../../rest/list-route.ts";
import type { RestRoute } from "../../rest/route.ts";

const shareLinkFields = /* GraphQL */ `
  fragment ShareLinkFields on ShareLink { object: __typename id createdAt name active urls { published } }
`;

const linkArgs = "$organizationId: ID!, $siteId: ID!, $shareLinkId: ID!";

export const shareLinkRoutes: RestRoute[] = [
  listRoute({
    path: "/orgs/{organizationId}/sites/{siteId}/share-links",
    operation: "listSiteShareLinks",
    variables: "$organizationId: ID!, $siteId: ID!, $search: String",
    fields: ["organization(id: $organizationId)", "site(id: $siteId)", "shareLinks(search: $search)"],
    nodes: "...ShareLinkFields",
    fragments: shareLinkFields,
  }),
  {
    method: "POST",
    path: "/orgs/{organizationId}/sites/{siteId}/share-links",
    operation: "createSiteShareLink",
    status: 201,
    result: "createSiteShareLink.shareLink",
    document: `mutation createSiteShareLink($input: CreateSiteShareLinkInput!) {
      createSiteShareLink(input: $input) { shareLink { ...ShareLinkFields } }
    } ${shareLinkFields}`,
  },
  {
    method: "PATCH",
    path: "/orgs/{organizationId}/sites/{siteId}/share-links/{shareLinkId}",
    operation: "updateSiteShareLinkById",
    status: 200,
    result: "updateSiteShareLink.shareLink",
    document: `mutation updateSiteShareLinkById($input: UpdateSiteShareLinkInput!) {
      updateSiteShareLink(input: $input) {
        shareLink {
          ...ShareLinkFields
        }
      }
    } ${shareLinkFields}`,
  },
  {
    method: "DELETE",
    path: "/orgs/{organizationId}/sites/{siteId}/share-links/{shareLinkId}",
    operation: "deleteSiteShareLinkById",
    status: 204,
    document: `mutation deleteSiteShareLinkById(${linkArgs}) {
      deleteSiteShareLink(input: { organizationId: $organizationId, siteId: $siteId, shareLinkId: $shareLinkId }) { deletedId }
    }`,
  },
];
