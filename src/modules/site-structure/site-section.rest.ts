import { listRoute } from "../../rest/list-route.ts";
import type { RestRoute } from "../../rest/route.ts";
import { siteSectionFields, siteStructureItemFields } from "./fragments.ts";

const site = "/orgs/{organizationId}/sites/{siteId}";

export const siteSectionRoutes: RestRoute[] = [
  listRoute({
    path: `${site}/sections`,
    operation: "listSiteSections",
    variables: "$organizationId: ID!, $siteId: ID!, $shareKey: String",
    fields: ["siteSections(organizationId: $organizationId, siteId: $siteId, shareKey: $shareKey)"],
    nodes: "...SiteSectionFields",
    fragments: siteSectionFields,
  }),
  {
    method: "POST",
    path: `${site}/sections`,
    operation: "addSectionToSite",
    status: 201,
    result: "createSiteSection.siteSection",
    document: `mutation addSectionToSite($organizationId: ID!, $siteId: ID!, $input: AddSectionToSiteInput!) {
      createSiteSection(organizationId: $organizationId, siteId: $siteId, input: $input) { siteSection { ...SiteSectionFields } }
    } ${siteSectionFields}`,
  },
  {
    method: "DELETE",
    path: `${site}/sections/{siteSectionId}`,
    operation: "deleteSiteSectionById",
    status: 204,
    document: `mutation deleteSiteSectionById($organizationId: ID!, $siteId: ID!, $siteSectionId: ID!) {
      deleteSiteSection(organizationId: $organizationId, siteId: $siteId, siteSectionId: $siteSectionId) { deletedId }
    }`,
  },
  {
    method: "PATCH",
    path: `${site}/sections/{siteSectionId}`,
    operation: "updateSiteSectionById",
    status: 200,
    result: "updateSiteSection.siteSection",
    document: `mutation updateSiteSectionById($organizationId: ID!, $siteId: ID!, $siteSectionId: ID!, $input: UpdateSiteSectionInput!) {
      updateSiteSection(organizationId: $organizationId, siteId: $siteId, siteSectionId: $siteSectionId, input: $input) {
        siteSection {
          ...SiteSectionFields
        }
      }
    } ${siteSectionFields}`,
  },
  {
    method: "POST",
    path: `${site}/sections/{siteSectionId}/move`,
    operation: "moveSiteSection",
    status: 200,
    result: "moveSiteSection",
    document: `mutation moveSiteSection($organizationId: ID!, $siteId: ID!, $siteSectionId: ID!, $input: MoveSiteSectionInput) {
      moveSiteSection(organizationId: $organizationId, siteId: $siteId, siteSectionId: $siteSectionId, input: $input) {
        ...SiteSectionFields
      }
    } ${siteSectionFields}`,
  },
  {
    method: "GET",
    path: `${site}/structure`,
    operation: "getSiteStructure",
    status: 200,
    result: "siteStructure",
    // The structure's published URLs are the site's own: a share link's key would not change them here.
    queryRules: { shareKey: { unsupported: "published URLs with a share key are not resolved on this route" } },
    document: `query getSiteStructure($organizationId: ID!, $siteId: ID!) {
      siteStructure(organizationId: $organizationId, siteId: $siteId) { type structure { ...SiteStructureItemFields } }
    } ${siteStructureItemFields}`,
  },
  {
    method: "PATCH",
    path: `${site}/structure/sort`,
    operation: "sortSiteStructure",
    status: 200,
    result: "sortSiteStructure.item",
    document: `mutation sortSiteStructure($organizationId: ID!, $siteId: ID!, $input: SortSiteStructureInput!) {
      sortSiteStructure(organizationId: $organizationId, siteId: $siteId, input: $input) { item { ...SiteStructureItemFields } }
    } ${siteStructureItemFields}`,
  },
];
