import { listRoute } from "../../rest/list-route.ts";
import type { RestRoute } from "../../rest/route.ts";

const specFields = /* GraphQL */ `
  fragment OpenAPISpecFields on OpenAPISpec {
    object: __typename id createdAt updatedAt slug sourceURL processingState visibility lastVersion lastProcessedAt
    lastProcessErrorCode lastProcessedErrors { message code } lastProcessedErrorCount
    permissions__view: viewerCanView permissions__edit: viewerCanUpdate urls { location app published }
  }
`;

const versionFields = /* GraphQL */ `
  fragment OpenAPISpecVersionFields on OpenAPISpecVersion { object: __typename id createdAt url urls { location } }
`;

const contentFields = "content { filesystem url urls { source public } }";

const specArgs = "$organizationId: ID!, $specSlug: String!";

// `versions/latest` routes come before `versions/{versionId}`: the first matching route wins.
/** Before its first successful processing a spec has no latest version: REST answers 404 with this message. */
const latestVersionAbsent = {
  path: "organization.openAPISpec.latestVersion",
  message: (variables: Readonly<Record<string, unknown>>) =>
    `OpenAPI specification ${variables.specSlug} has no version yet`,
};

export const openApiSpecRoutes: RestRoute[] = [
  listRoute({
    path: "/orgs/{organizationId}/openapi",
    operation: "listOpenAPISpecs",
    variables: "$organizationId: ID!",
    fields: ["organization(id: $organizationId)", "openAPISpecs"],
    nodes: "...OpenAPISpecFields",
    fragments: specFields,
  }),
  {
    method: "POST",
    path: "/orgs/{organizationId}/openapi",
    operation: "createOpenAPISpec",
    status: 201,
    result: "createOpenAPISpec.spec",
    document: `mutation createOpenAPISpec($input: CreateOpenAPISpecInput!) {
      createOpenAPISpec(input: $input) { spec { ...OpenAPISpecFields } }
    } ${specFields}`,
  },
  {
    method: "GET",
    path: "/orgs/{organizationId}/openapi/{specSlug}",
    operation: "getOpenAPISpecBySlug",
    status: 200,
    result: "organization.openAPISpec",
    document: `query getOpenAPISpecBySlug(${specArgs}) {
      organization(id: $organizationId) { openAPISpec(slug: $specSlug) { ...OpenAPISpecFields } }
    } ${specFields}`,
  },
  {
    method: "PUT",
    path: "/orgs/{organizationId}/openapi/{specSlug}",
    operation: "createOrUpdateOpenAPISpecBySlug",
    status: 200,
    createdWhen: "createOrUpdateOpenAPISpec.created",
    result: "createOrUpdateOpenAPISpec.spec",
    document: `mutation createOrUpdateOpenAPISpecBySlug($input: CreateOrUpdateOpenAPISpecInput!) {
      createOrUpdateOpenAPISpec(input: $input) {
        created spec { ...OpenAPISpecFields }
      }
    } ${specFields}`,
  },
  {
    method: "DELETE",
    path: "/orgs/{organizationId}/openapi/{specSlug}",
    operation: "deleteOpenAPISpecBySlug",
    status: 204,
    document: `mutation deleteOpenAPISpecBySlug(${specArgs}) {
      deleteOpenAPISpec(input: { organizationId: $organizationId, specSlug: $specSlug }) { deletedId }
    }`,
  },
  {
    method: "PATCH",
    path: "/orgs/{organizationId}/openapi/{specSlug}",
    operation: "updateOpenAPISpecBySlug",
    status: 200,
    result: "updateOpenAPISpec.spec",
    document: `mutation updateOpenAPISpecBySlug($input: UpdateOpenAPISpecInput!) {
      updateOpenAPISpec(input: $input) {
        spec {
          ...OpenAPISpecFields
        }
      }
    } ${specFields}`,
  },
  listRoute({
    path: "/orgs/{organizationId}/openapi/{specSlug}/versions",
    operation: "listOpenAPISpecVersions",
    variables: specArgs,
    fields: ["organization(id: $organizationId)", "openAPISpec(slug: $specSlug)", "versions"],
    nodes: "...OpenAPISpecVersionFields",
    fragments: versionFields,
  }),
  {
    method: "GET",
    path: "/orgs/{organizationId}/openapi/{specSlug}/versions/latest",
    operation: "getLatestOpenAPISpecVersion",
    status: 200,
    result: "organization.openAPISpec.latestVersion",
    absent: latestVersionAbsent,
    document: `query getLatestOpenAPISpecVersion(${specArgs}) {
      organization(id: $organizationId) {
        openAPISpec(slug: $specSlug) { latestVersion { ...OpenAPISpecVersionFields } }
      }
    } ${versionFields}`,
  },
  {
    method: "GET",
    path: "/orgs/{organizationId}/openapi/{specSlug}/versions/latest/content",
    operation: "getLatestOpenAPISpecVersionContent",
    status: 200,
    result: "organization.openAPISpec.latestVersion.content",
    absent: latestVersionAbsent,
    document: `query getLatestOpenAPISpecVersionContent(${specArgs}) {
      organization(id: $organizationId) { openAPISpec(slug: $specSlug) { latestVersion { ${contentFields} } } }
    }`,
  },
  {
    method: "GET",
    path: "/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}",
    operation: "getOpenAPISpecVersionById",
    status: 200,
    result: "organization.openAPISpec.version",
    document: `query getOpenAPISpecVersionById(${specArgs}, $versionId: ID!) {
      organization(id: $organizationId) {
        openAPISpec(slug: $specSlug) { version(id: $versionId) { ...OpenAPISpecVersionFields } }
      }
    } ${versionFields}`,
  },
  {
    method: "GET",
    path: "/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}/content",
    operation: "getOpenAPISpecVersionContentById",
    status: 200,
    result: "organization.openAPISpec.version.content",
    document: `query getOpenAPISpecVersionContentById(${specArgs}, $versionId: ID!) {
      organization(id: $organizationId) { openAPISpec(slug: $specSlug) { version(id: $versionId) { ${contentFields} } } }
    }`,
  },
];
