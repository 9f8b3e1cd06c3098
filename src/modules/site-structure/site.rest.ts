import { listRoute } from "../../rest/list-route.ts";
import type { RestRoute } from "../../rest/route.ts";
import { siteStructureItemFields } from "./fragments.ts";
import { siteTypes } from "./site.service.ts";

const siteFields = /* GraphQL */ `
  fragment SiteFields on Site {
    object: __typename id type appliedType title visibility published hostname basename proxy { origin target }
    adaptiveContent { enabled } agentsContext siteSpaces: siteSpaceCount features { id: name plan frozen } createdAt
    urls { location app published }
  }
`;

const siteArgs = "$organizationId: ID!, $siteId: ID!";

export const siteRoutes: RestRoute[] = [
  listRoute({
    path: "/orgs/{organizationId}/sites",
    operation: "listSites",
    variables: "$organizationId: ID!, $space: ID, $title: String, $published: Boolean, $filter: SiteFilter",
    fields: [
      "organization(id: $organizationId)",
      "sites(space: $space, title: $title, published: $published, filter: $filter)",
    ],
    nodes: "...SiteFields",
    fragments: siteFields,
    // The reference's `type` is `filter.type`.
    queryRules: { type: { oneOf: siteTypes } },
    queryVariables: {
      variables: ["filter"],
      from: (sent) => {
        const type = sent("type");
        return type === undefined ? {} : { filter: { type } };
      },
    },
  }),
  {
    method: "POST",
    path: "/orgs/{organizationId}/sites",
    operation: "createSite",
    status: 201,
    result: "createSite.site",
    document: `mutation createSite($input: CreateSiteInput!) {
      createSite(input: $input) { site { ...SiteFields } }
    } ${siteFields}`,
  },
  {
    method: "GET",
    path: "/orgs/{organizationId}/sites/{siteId}",
    operation: "getSiteById",
    status: 200,
    result: "organization.site",
    document: `query getSiteById(${siteArgs}) {
      organization(id: $organizationId) { site(id: $siteId) { ...SiteFields } }
    } ${siteFields}`,
  },
  {
    method: "PATCH",
    path: "/orgs/{organizationId}/sites/{siteId}",
    operation: "updateSiteById",
    status: 200,
    result: "updateSite.site",
    document: `mutation updateSiteById($input: UpdateSiteInput!) {
      updateSite(input: $input) { site { ...SiteFields } }
    } ${siteFields}`,
  },
  {
    method: "DELETE",
    path: "/orgs/{organizationId}/sites/{siteId}",
    operation: "deleteSiteById",
    status: 204,
    document: `mutation deleteSiteById(${siteArgs}) { deleteSite(input: { organizationId: $organizationId, siteId: $siteId }) { deletedId } }`,
  },
  {
    method: "POST",
    path: "/orgs/{organizationId}/sites/{siteId}/publish",
    operation: "publishSite",
    status: 200,
    result: "publishSite.site",
    document: `mutation publishSite(${siteArgs}) {
      publishSite(input: { organizationId: $organizationId, siteId: $siteId }) { site { ...SiteFields } }
    } ${siteFields}`,
  },
  {
    method: "POST",
    path: "/orgs/{organizationId}/sites/{siteId}/unpublish",
    operation: "unpublishSite",
    status: 200,
    result: "unpublishSite.site",
    document: `mutation unpublishSite(${siteArgs}) {
      unpublishSite(input: { organizationId: $organizationId, siteId: $siteId }) { site { ...SiteFields } }
    } ${siteFields}`,
  },
  {
    method: "GET",
    path: "/orgs/{organizationId}/sites/{siteId}/adaptive-schema",
    operation: "getSiteAdaptiveSchema",
    status: 200,
    result: "organization.site.adaptiveSchema",
    absent: { path: "organization.site.adaptiveSchema", message: (v) => `Site ${v.siteId} has no adaptive schema` },
    document: `query getSiteAdaptiveSchema(${siteArgs}) {
      organization(id: $organizationId) { site(id: $siteId) { adaptiveSchema { object: __typename jsonSchema updatedAt } } }
    }`,
  },
  {
    method: "PUT",
    path: "/orgs/{organizationId}/sites/{siteId}/adaptive-schema",
    operation: "updateSiteAdaptiveSchema",
    status: 200,
    result: "updateSiteAdaptiveSchema.adaptiveSchema",
    document: `mutation updateSiteAdaptiveSchema($input: UpdateSiteAdaptiveSchemaInput!) {
      updateSiteAdaptiveSchema(input: $input) {
        adaptiveSchema {
          object: __typename jsonSchema updatedAt
        }
      }
    }`,
  },
  {
    method: "GET",
    path: "/orgs/{organizationId}/sites/{siteId}/adaptive-schema/template-conditions",
    operation: "listSiteAdaptiveTemplateConditions",
    status: 200,
    result: "organization.site.adaptiveTemplateConditions",
    document: `query listSiteAdaptiveTemplateConditions(${siteArgs}) {
      organization(id: $organizationId) {
        site(id: $siteId) { adaptiveTemplateConditions { items { description condition } } }
      }
    }`,
  },
  {
    method: "GET",
    path: "/orgs/{organizationId}/sites/{siteId}/published",
    operation: "getPublishedContentSite",
    status: 200,
    result: "publishedContentSite",
    document: `query getPublishedContentSite(${siteArgs}, $shareKey: String) {
      publishedContentSite(organizationId: $organizationId, siteId: $siteId, shareKey: $shareKey) {
        object: __typename site { ...SiteFields } structure { type structure { ...SiteStructureItemFields } } customizations scripts
      }
    } ${siteFields} ${siteStructureItemFields}`,
  },
];
