import type { OpenAPISpec, OpenAPISpecVersion } from "../../db/generated/client.ts";
import { builder } from "../../graphql/builder.ts";
import { OrganizationRef } from "../organization/organization.graphql.ts";
import {
  createOrUpdateSpec,
  createSpec,
  deleteSpec,
  getLatestVersion,
  getSpec,
  getVersion,
  listSpecs,
  listVersions,
  loadVisibleSpecs,
  loadVisibleVersions,
  specLocation,
  specPermissions,
  updateSpecVisibility,
  versionContent,
  versionLocation,
  versionSourceUrl,
} from "./openapi-spec.service.ts";

const OpenAPISpecRef = builder.objectRef<OpenAPISpec>("OpenAPISpec");

const ProcessingStateEnum = builder.enumType("OpenAPISpecProcessingState", {
  values: ["pending", "progress", "complete"] as const,
});

const ProcessErrorCodeEnum = builder.enumType("OpenAPISpecProcessErrorCode", {
  values: ["FETCH_TIMEOUT", "FETCH_ERROR", "PARSE_ERROR"] as const,
});

const VisibilityEnum = builder.enumType("OpenAPISpecVisibility", {
  description: "private: members only; public: the versions' source URLs are readable without a token.",
  values: ["private", "public"] as const,
});

const ProcessErrorRef = builder.objectRef<{ message: string; code: string }>("OpenAPISpecProcessError").implement({
  fields: (t) => ({ message: t.exposeString("message"), code: t.exposeString("code") }),
});

const SpecPermissionsRef = builder.objectRef<{ view: boolean; edit: boolean }>("OpenAPISpecPermissions").implement({
  fields: (t) => ({ view: t.exposeBoolean("view"), edit: t.exposeBoolean("edit") }),
});

const SpecUrlsRef = builder
  .objectRef<{ location: string; app: string; published: string | null }>("OpenAPISpecUrls")
  .implement({
    fields: (t) => ({
      location: t.exposeString("location"),
      app: t.exposeString("app"),
      published: t.exposeString("published", {
        nullable: true,
        description: "The latest version's source, while the spec is public.",
      }),
    }),
  });

const VersionUrlsRef = builder.objectRef<{ location: string }>("OpenAPISpecVersionUrls").implement({
  fields: (t) => ({ location: t.exposeString("location") }),
});

const ContentUrlsRef = builder
  .objectRef<{ source: string; public: string | null }>("OpenAPISpecContentUrls")
  .implement({
    fields: (t) => ({
      source: t.exposeString("source"),
      public: t.exposeString("public", { nullable: true }),
    }),
  });

const ContentRef = builder
  .objectRef<{ filesystem: unknown; url: string; urls: { source: string; public: string | null } }>(
    "OpenAPISpecContent",
  )
  .implement({
    fields: (t) => ({
      filesystem: t.field({
        type: "JSON",
        description: "The parsed document per file name.",
        resolve: (c) => c.filesystem,
      }),
      url: t.exposeString("url", { description: "Where the version's source is served." }),
      urls: t.field({ type: ContentUrlsRef, resolve: (c) => c.urls }),
    }),
  });

const OpenAPISpecVersionRef = builder.node(builder.objectRef<OpenAPISpecVersion>("OpenAPISpecVersion"), {
  id: { resolve: (row) => row.id },
  loadMany: (ids, ctx) => loadVisibleVersions(ctx, ids),
  fields: (t) => ({
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    url: t.string({
      description: "The source as processed; readable without a token while the spec is public.",
      resolve: (version, _args, ctx) => versionSourceUrl(ctx, version.specId, version.id),
    }),
    urls: t.field({
      type: VersionUrlsRef,
      resolve: async (version, _args, ctx) => ({ location: await versionLocation(ctx, version) }),
    }),
    content: t.field({
      type: ContentRef,
      description: "getOpenAPISpecVersionContentById",
      resolve: (version, _args, ctx) => versionContent(ctx, version),
    }),
  }),
});

builder.node(OpenAPISpecRef, {
  description: "A named, versioned API description of an organization, processed from a URL or a text.",
  id: { resolve: (row) => row.id },
  loadMany: (ids, ctx) => loadVisibleSpecs(ctx, ids),
  fields: (t) => ({
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
    slug: t.exposeString("slug"),
    sourceURL: t.exposeString("sourceURL", { nullable: true, description: "Absent for specs given as text." }),
    processingState: t.field({
      type: ProcessingStateEnum,
      resolve: (spec) => spec.processingState as "pending" | "progress" | "complete",
    }),
    visibility: t.field({ type: VisibilityEnum, resolve: (spec) => spec.visibility as "private" | "public" }),
    lastVersion: t.exposeString("lastVersionId", { nullable: true, description: "Id of the latest version." }),
    lastProcessedAt: t.expose("lastProcessedAt", { type: "DateTime", nullable: true }),
    lastProcessErrorCode: t.field({
      type: ProcessErrorCodeEnum,
      nullable: true,
      resolve: (spec) => spec.lastProcessErrorCode as "FETCH_TIMEOUT" | "FETCH_ERROR" | "PARSE_ERROR" | null,
    }),
    lastProcessedErrors: t.field({
      type: [ProcessErrorRef],
      resolve: (spec) => spec.lastProcessedErrors as { message: string; code: string }[],
    }),
    lastProcessedErrorCount: t.int({
      resolve: (spec) => (spec.lastProcessedErrors as unknown[]).length,
    }),
    permissions: t.field({ type: SpecPermissionsRef, resolve: (spec, _args, ctx) => specPermissions(ctx, spec) }),
    urls: t.field({
      type: SpecUrlsRef,
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
      description: "listOpenAPISpecVersions (newest first)",
      resolve: (spec, args, ctx) => listVersions(ctx, spec, args),
    }),
    latestVersion: t.field({
      type: OpenAPISpecVersionRef,
      description: "getLatestOpenAPISpecVersion (NOT_FOUND before the first successful processing)",
      resolve: (spec, _args, ctx) => getLatestVersion(ctx, spec),
    }),
    version: t.field({
      type: OpenAPISpecVersionRef,
      description: "getOpenAPISpecVersionById",
      args: { id: t.arg.id({ required: true }) },
      resolve: (spec, args, ctx) => getVersion(ctx, spec, String(args.id)),
    }),
  }),
});

builder.objectFields(OrganizationRef, (t) => ({
  openAPISpecs: t.connection({
    type: OpenAPISpecRef,
    description: "listOpenAPISpecs (newest first)",
    resolve: (organization, args, ctx) => listSpecs(ctx, organization.id, args),
  }),
  openAPISpec: t.field({
    type: OpenAPISpecRef,
    description: "getOpenAPISpecBySlug",
    args: { slug: t.arg.string({ required: true }) },
    resolve: (organization, args, ctx) => getSpec(ctx, organization.id, args.slug),
  }),
}));

const SourceInput = builder.inputType("OpenAPISpecSourceInput", {
  description: "Exactly one of `url` (fetched by the server) or `text` (the document itself).",
  fields: (t) => ({ url: t.string(), text: t.string() }),
});

const CreateOpenAPISpecInput = builder.inputType("CreateOpenAPISpecInput", {
  fields: (t) => ({
    slug: t.string({ required: true, description: "1..100 letters and digits in groups joined by single hyphens." }),
    source: t.field({ type: SourceInput, required: true }),
  }),
});

const PutOpenAPISpecInput = builder.inputType("CreateOrUpdateOpenAPISpecInput", {
  fields: (t) => ({ source: t.field({ type: SourceInput, required: true }) }),
});

const UpdateOpenAPISpecInput = builder.inputType("UpdateOpenAPISpecInput", {
  fields: (t) => ({ visibility: t.field({ type: VisibilityEnum, required: true }) }),
});

const PutResultRef = builder
  .objectRef<{ created: boolean; spec: OpenAPISpec }>("CreateOrUpdateOpenAPISpecResult")
  .implement({
    fields: (t) => ({
      created: t.exposeBoolean("created", { description: "True when the slug was new." }),
      spec: t.field({ type: OpenAPISpecRef, resolve: (result) => result.spec }),
    }),
  });

/** Strips GraphQL's nulls from the optional source fields, so the service sees the REST body's shape. */
function sourceOf(source: { url?: string | null; text?: string | null }) {
  return Object.fromEntries(Object.entries(source).filter(([, value]) => value !== null && value !== undefined));
}

builder.mutationFields((t) => {
  const specArgs = { organizationId: t.arg.id({ required: true }), specSlug: t.arg.string({ required: true }) };
  return {
    createOpenAPISpec: t.field({
      type: OpenAPISpecRef,
      description: "Creates a spec and queues its processing (processingState pending).",
      args: {
        organizationId: t.arg.id({ required: true }),
        input: t.arg({ type: CreateOpenAPISpecInput, required: true }),
      },
      resolve: (_root, args, ctx) =>
        createSpec(ctx, String(args.organizationId), { ...args.input, source: sourceOf(args.input.source) }),
    }),
    createOrUpdateOpenAPISpecBySlug: t.field({
      type: PutResultRef,
      description: "Creates the spec or replaces its source; either way it is processed again.",
      args: { ...specArgs, input: t.arg({ type: PutOpenAPISpecInput, required: true }) },
      resolve: (_root, args, ctx) =>
        createOrUpdateSpec(ctx, String(args.organizationId), args.specSlug, { source: sourceOf(args.input.source) }),
    }),
    updateOpenAPISpecBySlug: t.field({
      type: OpenAPISpecRef,
      args: { ...specArgs, input: t.arg({ type: UpdateOpenAPISpecInput, required: true }) },
      resolve: (_root, args, ctx) => updateSpecVisibility(ctx, String(args.organizationId), args.specSlug, args.input),
    }),
    deleteOpenAPISpecBySlug: t.boolean({
      description: "Deletes the spec and its versions; deleting a missing spec succeeds.",
      args: specArgs,
      resolve: async (_root, args, ctx) => {
        await deleteSpec(ctx, String(args.organizationId), args.specSlug);
        return true;
      },
    }),
  };
});
