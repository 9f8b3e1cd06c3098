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
    document: `mutation addSectionToSite($input: CreateSiteSectionInput!) {
      createSiteSection(input: $input) { siteSection { ...SiteSectionFields } }
    } ${siteSectionFields}`,
  },
  {
    method: "DELETE",
    path: `${site}/sections/{siteSectionId}`,
    operation: "deleteSiteSectionById",
    status: 204,
    document: `mutation deleteSiteSectionById($organizationId: ID!, $siteId: ID!, $siteSectionId: ID!) {
      deleteSiteSection(input: { organizationId: $organizationId, siteId: $siteId, siteSectionId: $siteSectionId }) { deletedId }
    }`,
  },
  {
    method: "PATCH",
    path: `${site}/sections/{siteSectionId}`,
    operation: "updateSiteSectionById",
    status: 200,
    result: "updateSiteSection.siteSection",
    document: `mutation updateSiteSectionById($input: UpdateSiteSectionInput!) {
      updateSiteSection(input: $input) {
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
    result: "moveSiteSection.siteSection",
    document: `mutation moveSiteSection($input: MoveSiteSectionInput!) {
      moveSiteSection(input: $input) {
        siteSection { ...SiteSectionFields }
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
    document: `mutation sortSiteStructure($input: SortSiteStructureInput!) {
      sortSiteStructure(input: $input) { item { ...SiteStructureItemFields } }
    } ${siteStructureItemFields}`,
  },
];
