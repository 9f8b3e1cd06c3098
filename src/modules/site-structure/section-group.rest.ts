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
    document: `mutation addSectionGroupToSite($organizationId: ID!, $siteId: ID!, $input: AddSectionGroupToSiteInput!) {
      createSiteSectionGroup(organizationId: $organizationId, siteId: $siteId, input: $input) { siteSectionGroup { ...SiteSectionGroupFields } }
    } ${siteSectionGroupFields}`,
  },
  {
    method: "DELETE",
    path: `${groups}/{siteSectionGroupId}`,
    operation: "deleteSiteSectionGroupById",
    status: 204,
    document: `mutation deleteSiteSectionGroupById($organizationId: ID!, $siteId: ID!, $siteSectionGroupId: ID!) {
      deleteSiteSectionGroup(${groupArgs}) { deletedId }
    }`,
  },
  {
    method: "PATCH",
    path: `${groups}/{siteSectionGroupId}`,
    operation: "updateSiteSectionGroupById",
    status: 200,
    result: "updateSiteSectionGroup.siteSectionGroup",
    document: `mutation updateSiteSectionGroupById($organizationId: ID!, $siteId: ID!, $siteSectionGroupId: ID!, $input: UpdateSiteSectionGroupInput!) {
      updateSiteSectionGroup(${groupArgs}, input: $input) { siteSectionGroup { ...SiteSectionGroupFields } }
    } ${siteSectionGroupFields}`,
  },
  {
    method: "POST",
    path: `${groups}/{siteSectionGroupId}/sections`,
    operation: "addSectionToGroup",
    status: 201,
    result: "addSectionToGroup.siteSectionGroup",
    document: `mutation addSectionToGroup($organizationId: ID!, $siteId: ID!, $siteSectionGroupId: ID!, $input: AddSectionToGroupInput!) {
      addSectionToGroup(${groupArgs}, input: $input) { siteSectionGroup { ...SiteSectionGroupFields } }
    } ${siteSectionGroupFields}`,
  },
  {
    method: "DELETE",
    path: `${groups}/{siteSectionGroupId}/sections/{siteSectionId}`,
    operation: "removeSectionFromGroup",
    status: 204,
    document: `mutation removeSectionFromGroup($organizationId: ID!, $siteId: ID!, $siteSectionGroupId: ID!, $siteSectionId: ID!) {
      removeSectionFromGroup(${groupArgs}, siteSectionId: $siteSectionId) { removedId }
    }`,
  },
  {
    method: "POST",
    path: `${groups}/{siteSectionGroupId}/move`,
    operation: "moveSiteSectionGroup",
    status: 200,
    result: "moveSiteSectionGroup",
    document: `mutation moveSiteSectionGroup($organizationId: ID!, $siteId: ID!, $siteSectionGroupId: ID!, $input: MoveSiteSectionGroupInput) {
      moveSiteSectionGroup(${groupArgs}, input: $input) { ...SiteSectionGroupFields }
    } ${siteSectionGroupFields}`,
  },
];
