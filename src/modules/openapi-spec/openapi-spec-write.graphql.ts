import { builder } from "../../graphql/builder.ts";
import { describeInputField } from "../../graphql/input-description.ts";
import { describeMutation, payloadType } from "../../graphql/payload.ts";
import { edgeOf } from "../../paging/pagination.ts";
import { OpenAPISpecEdgeRef, OpenAPISpecRef, VisibilityEnum } from "./openapi-spec.graphql.ts";
import {
  createOrUpdateSpec,
  createSpec,
  createSpecSchema,
  deleteSpec,
  putSpecSchema,
  specSourceTextSchema,
  specSourceUrlSchema,
  updateSpecVisibility,
  visibilitySchema,
} from "./openapi-spec.service.ts";
import { specOrder } from "./openapi-spec-list.service.ts";

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

/** Strips GraphQL's nulls from the optional source fields, so the service sees the REST body's shape. */
function sourceOf(source: { url?: string | null; text?: string | null }) {
  return Object.fromEntries(Object.entries(source).filter(([, value]) => value !== null && value !== undefined));
}

const CreateOpenAPISpecPayloadRef = payloadType<{
  spec: typeof OpenAPISpecRef.$inferType;
  specEdge: typeof OpenAPISpecEdgeRef.$inferType;
}>("createOpenAPISpec", {
  spec: { type: OpenAPISpecRef, description: "The new spec, pending processing." },
  specEdge: { type: OpenAPISpecEdgeRef, description: "The new spec's edge in the organization's `openAPISpecs`." },
});

const CreateOrUpdateOpenAPISpecPayloadRef = payloadType<{
  created: boolean;
  spec: typeof OpenAPISpecRef.$inferType;
  specEdge: typeof OpenAPISpecEdgeRef.$inferType;
}>("createOrUpdateOpenAPISpec", {
  created: { type: "Boolean", description: "True when the slug was new." },
  spec: { type: OpenAPISpecRef, description: "The spec, processing again." },
  specEdge: { type: OpenAPISpecEdgeRef, description: "The spec's edge in the organization's `openAPISpecs`." },
});

const UpdateOpenAPISpecPayloadRef = payloadType<{ spec: typeof OpenAPISpecRef.$inferType }>("updateOpenAPISpec", {
  spec: { type: OpenAPISpecRef, description: "The spec, changed." },
});

const DeleteOpenAPISpecPayloadRef = payloadType<{ deletedId: string | null }>("deleteOpenAPISpec", {
  deletedId: {
    type: "ID",
    description: "The deleted spec's id (for Relay's `@deleteRecord`); null when there was no such spec.",
  },
});

builder.mutationFields((t) => {
  const organizationId = t.arg.id({ required: true, description: "The organization's id." });
  const specArgs = { organizationId, specSlug: t.arg.string({ required: true, description: "The spec's slug." }) };
  return {
    createOpenAPISpec: t.field({
      type: CreateOpenAPISpecPayloadRef,
      ...describeMutation(
        "Creates a spec and queues its processing (processingState pending); organization role create " +
          "(createOpenAPISpec).",
        {
          NOT_FOUND: "no such organization for the caller",
          FORBIDDEN: "below the create role",
          BAD_USER_INPUT: "invalid input",
          CONFLICT: "the slug is taken",
        },
      ),
      args: {
        organizationId,
        input: t.arg({ type: CreateOpenAPISpecInput, required: true, description: "The new spec." }),
      },
      resolve: async (_root, args, ctx) => {
        const spec = await createSpec(ctx, args.organizationId, { ...args.input, source: sourceOf(args.input.source) });
        return { spec, specEdge: edgeOf(specOrder, spec) };
      },
    }),
    createOrUpdateOpenAPISpec: t.field({
      type: CreateOrUpdateOpenAPISpecPayloadRef,
      ...describeMutation(
        "Creates the spec or replaces its source; either way it is processed again. Organization role create " +
          "(createOrUpdateOpenAPISpecBySlug).",
        {
          NOT_FOUND: "no such organization for the caller",
          FORBIDDEN: "below the create role",
          BAD_USER_INPUT: "invalid source",
        },
      ),
      args: {
        ...specArgs,
        input: t.arg({ type: PutOpenAPISpecInput, required: true, description: "The source." }),
      },
      resolve: async (_root, args, ctx) => {
        const result = await createOrUpdateSpec(ctx, args.organizationId, args.specSlug, {
          source: sourceOf(args.input.source),
        });
        return { ...result, specEdge: edgeOf(specOrder, result.spec) };
      },
    }),
    updateOpenAPISpec: t.field({
      type: UpdateOpenAPISpecPayloadRef,
      ...describeMutation("Changes a spec's visibility; organization role create (updateOpenAPISpecBySlug).", {
        NOT_FOUND: "no such organization or spec for the caller",
        FORBIDDEN: "below the create role",
        BAD_USER_INPUT: "invalid visibility",
      }),
      args: {
        ...specArgs,
        input: t.arg({ type: UpdateOpenAPISpecInput, required: true, description: "The changes." }),
      },
      resolve: async (_root, args, ctx) => ({
        spec: await updateSpecVisibility(ctx, args.organizationId, args.specSlug, args.input),
      }),
    }),
    deleteOpenAPISpec: t.field({
      type: DeleteOpenAPISpecPayloadRef,
      ...describeMutation(
        "Deletes the spec and its versions; deleting a missing spec succeeds. Organization role create " +
          "(deleteOpenAPISpecBySlug).",
        { NOT_FOUND: "no such organization for the caller", FORBIDDEN: "below the create role" },
      ),
      args: specArgs,
      resolve: async (_root, args, ctx) => ({ deletedId: await deleteSpec(ctx, args.organizationId, args.specSlug) }),
    }),
  };
});
