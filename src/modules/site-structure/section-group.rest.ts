import { listRoute } from "../../rest/list-route.ts";
import type { RestRoute } from "../../rest/route.ts";
import { siteSectionGroupFields } from "./fragments.ts";

const groups = "/orgs/{organizationId}/sites/{siteId}/section-groups";
const groupArgs = "organizationId: $organizationId, siteId: $siteId, siteSectionGroupId: $siteSectionGroupId";

export const sectionGroupRoutes: RestRoute[] = [
  listRoute({
    path: groups,
    operation: "listSiteSectionGroups",
    variables: "$organizationId: ID!, $siteId: ID!",
    fields: ["siteSectionGroups(organizationId: $organizationId, siteId: $siteId)"],
    nodes: "...SiteSectionGroupFields",
    fragments: siteSectionGroupFields,
  }),
  {
    method: "POST",
    path: groups,
    operation: "addSectionGroupToSite",
    status: 201,
    result: "createSiteSectionGroup.siteSectionGroup",
    document: `mutation addSectionGroupToSite($input: CreateSiteSectionGroupInput!) {
      createSiteSectionGroup(input: $input) { siteSectionGroup { ...SiteSectionGroupFields } }
    } ${siteSectionGroupFields}`,
  },
  {
    method: "DELETE",
    path: `${groups}/{siteSectionGroupId}`,
    operation: "deleteSiteSectionGroupById",
    status: 204,
    document: `mutation deleteSiteSectionGroupById($organizationId: ID!, $siteId: ID!, $siteSectionGroupId: ID!) {
      deleteSiteSectionGroup(input: { ${groupArgs} }) { deletedId }
    }`,
  },
  {
    method: "PATCH",
    path: `${groups}/{siteSectionGroupId}`,
    operation: "updateSiteSectionGroupById",
    status: 200,
    result: "updateSiteSectionGroup.siteSectionGroup",
    document: `mutation updateSiteSectionGroupById($input: UpdateSiteSectionGroupInput!) {
      updateSiteSectionGroup(input: $input) { siteSectionGroup { ...SiteSectionGroupFields } }
    } ${siteSectionGroupFields}`,
  },
  {
    method: "POST",
    path: `${groups}/{siteSectionGroupId}/sections`,
    operation: "addSectionToGroup",
    status: 201,
    result: "addSectionToGroup.siteSectionGroup",
    document: `mutation addSectionToGroup($input: AddSectionToGroupInput!) {
      addSectionToGroup(input: $input) { siteSectionGroup { ...SiteSectionGroupFields } }
    } ${siteSectionGroupFields}`,
  },
  {
    method: "DELETE",
    path: `${groups}/{siteSectionGroupId}/sections/{siteSectionId}`,
    operation: "removeSectionFromGroup",
    status: 204,
    document: `mutation removeSectionFromGroup($organizationId: ID!, $siteId: ID!, $siteSectionGroupId: ID!, $siteSectionId: ID!) {
      removeSectionFromGroup(input: { ${groupArgs}, siteSectionId: $siteSectionId }) { removedId }
    }`,
  },
  {
    method: "POST",
    path: `${groups}/{siteSectionGroupId}/move`,
    operation: "moveSiteSectionGroup",
    status: 200,
    result: "moveSiteSectionGroup.siteSectionGroup",
    document: `mutation moveSiteSectionGroup($input: MoveSiteSectionGroupInput!) {
      moveSiteSectionGroup(input: $input) { siteSectionGroup { ...SiteSectionGroupFields } }
    } ${siteSectionGroupFields}`,
  },
];
