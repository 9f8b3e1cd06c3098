import type { OpenAPISpec, OpenAPISpecVersion } from "../../db/generated/client.ts";
import { builder } from "../../graphql/builder.ts";
import { publicEnum } from "../../graphql/enums.ts";
import { describeInputField } from "../../graphql/input-description.ts";
import { dateBoundFields, orderByDescription, orderInput, timeRangeKeys } from "../../graphql/list-order.ts";
import { OrganizationRef } from "../organization/organization.graphql.ts";
import {
  createOrUpdateSpec,
  createSpec,
  createSpecSchema,
  deleteSpec,
  getLatestVersion,
  getSpec,
  getVersion,
  listVersions,
  loadVisibleSpecs,
  loadVisibleVersions,
  putSpecSchema,
  specLocation,
  specPermissions,
  specSourceTextSchema,
  specSourceUrlSchema,
  updateSpecVisibility,
  versionContent,
  versionLocation,
  versionSourceUrl,
  visibilitySchema,
} from "./openapi-spec.service.ts";
import { listSpecs, specFilterSchema, specListOrder } from "./openapi-spec-list.service.ts";

const OpenAPISpecRef = builder.objectRef<OpenAPISpec>("OpenAPISpec");

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

const VisibilityEnum = publicEnum("OpenAPISpecVisibility", "Who may read a spec's versions' sources.", {
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

const SpecPermissionsRef = builder.objectRef<{ view: boolean; edit: boolean }>("OpenAPISpecPermissions").implement({
  description: "What the viewer may do with a spec, from their organization role.",
  fields: (t) => ({
    view: t.exposeBoolean("view", { description: "Read it (role read or more)." }),
    edit: t.exposeBoolean("edit", { description: "Change or delete it (role create or more)." }),
  }),
});

const SpecUrlsRef = builder
  .objectRef<{ location: string; app: string; published: string | null }>("OpenAPISpecUrls")
  .implement({
    description: "Where a spec is found.",
    fields: (t) => ({
      location: t.exposeString("location", { description: "The spec's URL in the REST API." }),
      app: t.exposeString("app", { description: "The URL of this GraphQL API, where it is managed." }),
      published: t.exposeString("published", {
        nullable: true,
        description: "The latest version's source, readable without a token; null unless public with a version.",
      }),
    }),
  });

const VersionUrlsRef = builder.objectRef<{ location: string }>("OpenAPISpecVersionUrls").implement({
  description: "Where a spec version is found.",
  fields: (t) => ({ location: t.exposeString("location", { description: "The version's URL in the REST API." }) }),
});

const ContentUrlsRef = builder
  .objectRef<{ source: string; public: string | null }>("OpenAPISpecContentUrls")
  .implement({
    description: "Where a version's document comes from and is served.",
    fields: (t) => ({
      source: t.exposeString("source", {
        description: "The spec's source URL, or where this version's source is served for specs given as text.",
      }),
      public: t.exposeString("public", {
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
      url: t.exposeString("url", { description: "Where the version's source is served." }),
      urls: t.field({
        type: ContentUrlsRef,
        description: "Where it comes from and is served.",
        resolve: (c) => c.urls,
      }),
    }),
  });

const OpenAPISpecVersionRef = builder.node(builder.objectRef<OpenAPISpecVersion>("OpenAPISpecVersion"), {
  description: "One processed state of a spec's document; a new one is made only when the content changes.",
  id: { resolve: (row) => row.id },
  loadMany: (ids, ctx) => loadVisibleVersions(ctx, ids),
  fields: (t) => ({
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When it was processed (ISO 8601)." }),
    url: t.string({
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
  description:
    "A named, versioned API description of an organization, processed from a URL or a text. Organization members " +
    "read it; role create changes it.",
  id: { resolve: (row) => row.id },
  loadMany: (ids, ctx) => loadVisibleSpecs(ctx, ids),
  fields: (t) => ({
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When it was created (ISO 8601)." }),
    updatedAt: t.expose("updatedAt", {
      type: "DateTime",
      description: "When its source, visibility or versions last changed (ISO 8601).",
    }),
    slug: t.exposeString("slug", { description: "Its name in URLs, unique in the organization." }),
    sourceURL: t.exposeString("sourceURL", { nullable: true, description: "Absent for specs given as text." }),
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
    permissions: t.field({
      type: SpecPermissionsRef,
      description: "What the viewer may do with it.",
      resolve: (spec, _args, ctx) => specPermissions(ctx, spec),
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
      description:
        "Its latest version; a NOT_FOUND error before the first successful processing (getLatestOpenAPISpecVersion).",
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

builder.objectFields(OrganizationRef, (t) => ({
  openAPISpecs: t.connection({
    type: OpenAPISpecRef,
    description: "The organization's OpenAPI specs, newest first; organization members (listOpenAPISpecs).",
    args: {
      orderBy: t.arg({ type: [OpenAPISpecOrderInput], description: orderByDescription("newest first") }),
      filter: t.arg({ type: OpenAPISpecFilterInput, description: "Conditions on the OpenAPI specs listed." }),
    },
    resolve: (organization, args, ctx) => listSpecs(ctx, organization.id, args, args),
  }),
  openAPISpec: t.field({
    type: OpenAPISpecRef,
    description: "One OpenAPI spec, by slug; organization members (getOpenAPISpecBySlug).",
    args: { slug: t.arg.string({ required: true, description: "The spec's slug." }) },
    resolve: (organization, args, ctx) => getSpec(ctx, organization.id, args.slug),
  }),
}));

const SourceInput = builder.inputType("OpenAPISpecSourceInput", {
  description: "Exactly one of `url` (fetched by the server) or `text` (the document itself).",
  fields: (t) => ({
    url: t.string({ description: describeInputField(specSourceUrlSchema, "url") }),
    text: t.string({ description: describeInputField(specSourceTextSchema, "text") }),
  }),
});

const CreateOpenAPISpecInput = builder.inputType("CreateOpenAPISpecInput", {
  description: "A new OpenAPI spec.",
  fields: (t) => ({
    slug: t.string({ required: true, description: describeInputField(createSpecSchema, "slug") }),
    source: t.field({ type: SourceInput, required: true, description: describeInputField(createSpecSchema, "source") }),
  }),
});

const PutOpenAPISpecInput = builder.inputType("CreateOrUpdateOpenAPISpecInput", {
  description: "The source of a spec to create or update.",
  fields: (t) => ({
    source: t.field({ type: SourceInput, required: true, description: describeInputField(putSpecSchema, "source") }),
  }),
});

const UpdateOpenAPISpecInput = builder.inputType("UpdateOpenAPISpecInput", {
  description: "Changes to a spec.",
  fields: (t) => ({
    visibility: t.field({
      type: VisibilityEnum,
      required: true,
      description: describeInputField(visibilitySchema, "visibility"),
    }),
  }),
});

const PutResultRef = builder
  .objectRef<{ created: boolean; spec: OpenAPISpec }>("CreateOrUpdateOpenAPISpecResult")
  .implement({
    description: "The spec a create-or-update wrote, and whether it was new.",
    fields: (t) => ({
      created: t.exposeBoolean("created", { description: "True when the slug was new." }),
      spec: t.field({
        type: OpenAPISpecRef,
        description: "The spec, processing again.",
        resolve: (result) => result.spec,
      }),
    }),
  });

/** Strips GraphQL's nulls from the optional source fields, so the service sees the REST body's shape. */
function sourceOf(source: { url?: string | null; text?: string | null }) {
  return Object.fromEntries(Object.entries(source).filter(([, value]) => value !== null && value !== undefined));
}

builder.mutationFields((t) => {
  const organizationId = t.arg.id({ required: true, description: "The organization's id." });
  const specArgs = { organizationId, specSlug: t.arg.string({ required: true, description: "The spec's slug." }) };
  return {
    createOpenAPISpec: t.field({
      type: OpenAPISpecRef,
      description:
        "Creates a spec and queues its processing (processingState pending); organization role create " +
        "(createOpenAPISpec).",
      args: {
        organizationId,
        input: t.arg({ type: CreateOpenAPISpecInput, required: true, description: "The new spec." }),
      },
      resolve: (_root, args, ctx) =>
        createSpec(ctx, args.organizationId, { ...args.input, source: sourceOf(args.input.source) }),
    }),
    createOrUpdateOpenAPISpecBySlug: t.field({
      type: PutResultRef,
      description:
        "Creates the spec or replaces its source; either way it is processed again. Organization role create " +
        "(createOrUpdateOpenAPISpecBySlug).",
      args: {
        ...specArgs,
        input: t.arg({ type: PutOpenAPISpecInput, required: true, description: "The source." }),
      },
      resolve: (_root, args, ctx) =>
        createOrUpdateSpec(ctx, args.organizationId, args.specSlug, { source: sourceOf(args.input.source) }),
    }),
    updateOpenAPISpecBySlug: t.field({
      type: OpenAPISpecRef,
      description: "Changes a spec's visibility; organization role create (updateOpenAPISpecBySlug).",
      args: {
        ...specArgs,
        input: t.arg({ type: UpdateOpenAPISpecInput, required: true, description: "The changes." }),
      },
      resolve: (_root, args, ctx) => updateSpecVisibility(ctx, args.organizationId, args.specSlug, args.input),
    }),
    deleteOpenAPISpecBySlug: t.boolean({
      description:
        "Deletes the spec and its versions; deleting a missing spec succeeds. Organization role create; always " +
        "true (deleteOpenAPISpecBySlug).",
      args: specArgs,
      resolve: async (_root, args, ctx) => {
        await deleteSpec(ctx, args.organizationId, args.specSlug);
        return true;
      },
    }),
  };
});
