import { listRoute } from "../../rest/list-route.ts";
import type { RestRoute } from "../../rest/route.ts";

const translationFields = /* GraphQL */ `
  fragment TranslationFields on Translation {
    object: __typename id status failureReason provider language instructions createdAt updatedAt
    source { space: spaceId language }
    result { space: spaceId revision: revisionId }
    stats { runs totalWords totalPages totalDuration latestRunDuration latestPages latestWords }
    permissions__view: viewerCanView permissions__edit: viewerCanUpdate
    urls { location }
  }
`;

const base = "/orgs/{organizationId}/translations";
const args = "organizationId: $organizationId, translationId: $translationId";
const variables = "$organizationId: ID!, $translationId: ID!";

export const translationRoutes: RestRoute[] = [
  listRoute({
    path: base,
    operation: "listTranslations",
    variables: "$organizationId: ID!",
    fields: ["organization(id: $organizationId)", "translations"],
    nodes: "...TranslationFields",
    fragments: translationFields,
  }),
  {
    method: "POST",
    path: base,
    operation: "createTranslation",
    status: 201,
    result: "createTranslation.translation",
    document: `mutation createTranslation($input: CreateTranslationInput!) {
      createTranslation(input: $input) { translation { ...TranslationFields } }
    } ${translationFields}`,
  },
  {
    method: "GET",
    path: `${base}/{translationId}`,
    operation: "getTranslation",
    status: 200,
    result: "organization.translation",
    document: `query getTranslation(${variables}) {
      organization(id: $organizationId) { translation(id: $translationId) { ...TranslationFields } }
    } ${translationFields}`,
  },
  {
    method: "PUT",
    path: `${base}/{translationId}`,
    operation: "updateTranslation",
    status: 200,
    result: "updateTranslation.translation",
    document: `mutation updateTranslation($input: UpdateTranslationInput!) {
      updateTranslation(input: $input) { translation { ...TranslationFields } }
    } ${translationFields}`,
  },
  {
    method: "DELETE",
    path: `${base}/{translationId}`,
    operation: "deleteTranslation",
    status: 204,
    document: `mutation deleteTranslation(${variables}) { deleteTranslation(input: { ${args} }) { deletedId } }`,
  },
  {
    method: "POST",
    path: `${base}/{translationId}/run`,
    operation: "runTranslation",
    status: 204,
    document: `mutation runTranslation(${variables}) { runTranslation(input: { ${args} }) { translation { id } } }`,
  },
];
