import type { OpenAPISpec, OpenAPISpecVersion } from "../../db/generated/client.ts";
import { builder } from "../../graphql/builder.ts";
import { publicEnum } from "../../graphql/enums.ts";
import { describeInputField } from "../../graphql/input-description.ts";
import { dateBoundFields, orderByDescription, orderInput, timeRangeKeys } from "../../graphql/list-order.ts";
import { idColumn } from "../../graphql/node-ids.ts";
import { viewerCanFields } from "../../graphql/viewer-can.ts";
import { addOrganizationParent, OrganizationRef } from "../organization/organization.public.ts";
import { parentSpec } from "./openapi-spec.loaders.ts";
import {
  getLatestVersion,
  getSpec,
  getVersion,
  listVersions,
  loadVisibleSpecs,
  loadVisibleVersions,
  specLocation,
  specPermissions,
  versionContent,
  versionLocation,
  versionSourceUrl,
} from "./openapi-spec.service.ts";
import { listSpecs, specFilterSchema, specListOrder } from "./openapi-spec-list.service.ts";

export const OpenAPISpecRef = builder.objectRef<OpenAPISpec>("OpenAPISpec");

const ProcessingStateEnum = publicEnum("OpenAPISpecProcessingState", "Where a spec's processing stands.", {
  pending: "Queued (also between retries of a fetch that may pass).",
  progress: "Being fetched and parsed.",
  complete: "Done, with a new version or the errors of `lastProcessedErrors`.",
});

const ProcessErrorCodeEnum = builder.enumType("OpenAPISpecProcessErrorCode", {
  description: "Why the last processing failed.",
  values: {
    FETCH_TIMEOUT: { description: "Fetching the source URL took too long." },
    FETCH_ERROR: { description: "The source URL could not be fetched (unreachable, refused or an error answer)." },
    PARSE_ERROR: { description: "The source is not a valid OpenAPI or Swagger document in JSON or YAML." },
  } as const,
});

export const VisibilityEnum = publicEnum("OpenAPISpecVisibility", "Who may read a spec's versions' sources.", {
  private: "Organization members only.",
  public: "Anyone: the versions' source URLs are readable without a token.",
});

const ProcessErrorRef = builder.objectRef<{ message: string; code: string }>("OpenAPISpecProcessError").implement({
  description: "One problem found by the last processing.",
  fields: (t) => ({
    message: t.exposeString("message", { description: "What is wrong, for people." }),
    code: t.exposeString("code", {
      description: "Its kind: FETCH_TIMEOUT, FETCH_ERROR, SYNTAX or INVALID_SPEC.",
    }),
  }),
});

const SpecUrlsRef = builder
  .objectRef<{ location: string; app: string; published: string | null }>("OpenAPISpecURLs")
  .implement({
    description: "Where a spec is found.",
    fields: (t) => ({
      location: t.expose("location", { type: "URL", description: "The spec's URL in the REST API." }),
      app: t.expose("app", { type: "URL", description: "The URL of this GraphQL API, where it is managed." }),
      published: t.expose("published", {
        type: "URL",
        nullable: true,
        description: "The latest version's source, readable without a token; null unless public with a version.",
      }),
    }),
  });

const VersionUrlsRef = builder.objectRef<{ location: string }>("OpenAPISpecVersionURLs").implement({
  description: "Where a spec version is found.",
  fields: (t) => ({
    location: t.expose("location", { type: "URL", description: "The version's URL in the REST API." }),
  }),
});

const ContentUrlsRef = builder
  .objectRef<{ source: string; public: string | null }>("OpenAPISpecContentURLs")
  .implement({
    description: "Where a version's document comes from and is served.",
    fields: (t) => ({
      source: t.expose("source", {
        type: "URL",
        description: "The spec's source URL, or where this version's source is served for specs given as text.",
      }),
      public: t.expose("public", {
        extensions: { restKeepsNull: true },
        type: "URL",
        nullable: true,
        description: "Where the version's source is served without a token; null while the spec is private.",
      }),
    }),
  });

const ContentRef = builder
  .objectRef<{ filesystem: unknown; url: string; urls: { source: string; public: string | null } }>(
    "OpenAPISpecContent",
  )
  .implement({
    description: "A version's document, parsed.",
    fields: (t) => ({
      filesystem: t.field({
        type: "JSON",
        description: "The parsed document per file name.",
        resolve: (c) => c.filesystem,
      }),
      url: t.expose("url", { type: "URL", description: "Where the version's source is served." }),
      urls: t.field({
        type: ContentUrlsRef,
        description: "Where it comes from and is served.",
        resolve: (c) => c.urls,
      }),
    }),
  });

const OpenAPISpecVersionRef = builder.node(builder.objectRef<OpenAPISpecVersion>("OpenAPISpecVersion"), {
  extensions: { restObjectName: "openapi-spec-version" },
  description: "One processed state of a spec's document; a new one is made only when the content changes.",
  id: idColumn,
  loadMany: (ids, ctx) => loadVisibleVersions(ctx, ids),
  fields: (t) => ({
    specId: t.exposeID("specId", { description: "Id of its spec (the id of `spec`)." }),
    spec: t.field({
      type: OpenAPISpecRef,
      description: "The spec it is a version of.",
      resolve: (version, _args, ctx) => parentSpec(ctx, version.specId),
    }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When it was processed (ISO 8601)." }),
    url: t.field({
      type: "URL",
      description: "The source as processed; readable without a token while the spec is public.",
      resolve: (version, _args, ctx) => versionSourceUrl(ctx, version.specId, version.id),
    }),
    urls: t.field({
      type: VersionUrlsRef,
      description: "Where the version is found.",
      resolve: async (version, _args, ctx) => ({ location: await versionLocation(ctx, version) }),
    }),
    content: t.field({
      type: ContentRef,
      description: "The parsed document (getOpenAPISpecVersionContentById).",
      resolve: (version, _args, ctx) => versionContent(ctx, version),
    }),
  }),
});

builder.node(OpenAPISpecRef, {
  extensions: { restObjectName: "openapi-spec" },
  description:
    "A named, versioned API description of an organization, processed from a URL or a text. Organization members " +
    "read it; role create changes it.",
  id: idColumn,
  loadMany: (ids, ctx) => loadVisibleSpecs(ctx, ids),
  fields: (t) => ({
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When it was created (ISO 8601)." }),
    updatedAt: t.expose("updatedAt", {
      type: "DateTime",
      description: "When its source, visibility or versions last changed (ISO 8601).",
    }),
    slug: t.exposeString("slug", { description: "Its name in URLs, unique in the organization." }),
    sourceURL: t.expose("sourceURL", { type: "URL", nullable: true, description: "Absent for specs given as text." }),
    processingState: t.field({
      type: ProcessingStateEnum,
      description: "Where its processing stands.",
      resolve: (spec) => spec.processingState as "pending" | "progress" | "complete",
    }),
    visibility: t.field({
      type: VisibilityEnum,
      description: "Who may read its versions' sources.",
      resolve: (spec) => spec.visibility as "private" | "public",
    }),
    lastVersion: t.exposeString("lastVersionId", {
      nullable: true,
      description: "Id of the latest version; null before the first successful processing.",
    }),
    lastProcessedAt: t.expose("lastProcessedAt", {
      type: "DateTime",
      nullable: true,
      description: "When it was last processed, successfully or not (ISO 8601); null before.",
    }),
    lastProcessErrorCode: t.field({
      type: ProcessErrorCodeEnum,
      nullable: true,
      description: "Why the last processing failed; null when it succeeded.",
      resolve: (spec) => spec.lastProcessErrorCode as "FETCH_TIMEOUT" | "FETCH_ERROR" | "PARSE_ERROR" | null,
    }),
    lastProcessedErrors: t.field({
      type: [ProcessErrorRef],
      description: "The problems of the last processing; empty when it succeeded.",
      resolve: (spec) => spec.lastProcessedErrors as { message: string; code: string }[],
    }),
    lastProcessedErrorCount: t.int({
      description: "Number of `lastProcessedErrors`.",
      resolve: (spec) => (spec.lastProcessedErrors as unknown[]).length,
    }),
    ...viewerCanFields(t, (spec, ctx) => specPermissions(ctx, spec), {
      viewerCanView: ["view", "Whether the viewer may read it (role read or more)."],
      viewerCanUpdate: ["edit", "Whether the viewer may change or delete it (role create or more)."],
    }),
    urls: t.field({
      type: SpecUrlsRef,
      description: "Where it is found.",
      resolve: (spec, _args, ctx) => {
        const location = specLocation(ctx, spec);
        return {
          location,
          app: `${ctx.config.publicUrl}/graphql`,
          published:
            spec.visibility === "public" && spec.lastVersionId
              ? versionSourceUrl(ctx, spec.id, spec.lastVersionId)
              : null,
        };
      },
    }),
    versions: t.connection({
      type: OpenAPISpecVersionRef,
      description: "Its versions, newest first (listOpenAPISpecVersions).",
      resolve: (spec, args, ctx) => listVersions(ctx, spec, args),
    }),
    latestVersion: t.field({
      type: OpenAPISpecVersionRef,
      nullable: true,
      description: "Its latest version; null before the first successful processing (getLatestOpenAPISpecVersion).",
      resolve: (spec, _args, ctx) => getLatestVersion(ctx, spec),
    }),
    version: t.field({
      type: OpenAPISpecVersionRef,
      description: "One of its versions (getOpenAPISpecVersionById).",
      args: { id: t.arg.id({ required: true, description: "The version's id." }) },
      resolve: (spec, args, ctx) => getVersion(ctx, spec, args.id),
    }),
  }),
});

const OpenAPISpecOrderInput = orderInput("OpenAPISpec", "OpenAPI specs", specListOrder.fields);

const OpenAPISpecFilterInput = builder.inputType("OpenAPISpecFilter", {
  description: "Conditions on the OpenAPI specs listed, all of which must hold.",
  fields: (t) => ({
    slugContains: t.string({ description: describeInputField(specFilterSchema, "slugContains") }),
    processingState: t.field({
      type: ProcessingStateEnum,
      description: describeInputField(specFilterSchema, "processingState"),
    }),
    ...dateBoundFields(t, specFilterSchema, timeRangeKeys),
  }),
});

/** The edge of an organization's `openAPISpecs`, shared with the payloads that create a spec. */
export const OpenAPISpecEdgeRef = builder.edgeObject({
  type: OpenAPISpecRef,
  name: "OrganizationOpenAPISpecsConnectionEdge",
});

builder.objectFields(OrganizationRef, (t) => ({
  openAPISpecs: t.connection(
    {
      type: OpenAPISpecRef,
      description: "The organization's OpenAPI specs, newest first; organization members (listOpenAPISpecs).",
      args: {
        orderBy: t.arg({ type: [OpenAPISpecOrderInput], description: orderByDescription("newest first") }),
        filter: t.arg({ type: OpenAPISpecFilterInput, description: "Conditions on the OpenAPI specs listed." }),
      },
      resolve: (organization, args, ctx) => listSpecs(ctx, organization.id, args, args),
    },
    {},
    OpenAPISpecEdgeRef,
  ),
  openAPISpec: t.field({
    type: OpenAPISpecRef,
    description: "One OpenAPI spec, by slug; organization members (getOpenAPISpecBySlug).",
    args: { slug: t.arg.string({ required: true, description: "The spec's slug." }) },
    resolve: (organization, args, ctx) => getSpec(ctx, organization.id, args.slug),
  }),
}));

addOrganizationParent(OpenAPISpecRef);
