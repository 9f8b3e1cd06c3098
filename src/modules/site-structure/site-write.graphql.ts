import type { Site } from "../../db/generated/client.ts";
import { builder } from "../../graphql/builder.ts";
import { describeInputField } from "../../graphql/input-description.ts";
import { describeMutation, payloadType } from "../../graphql/payload.ts";
import { checkedByService } from "../../graphql/service-check.ts";
import { type Edge, edgeOf } from "../../paging/pagination.ts";
import { siteByIdArgs } from "./parent-args.graphql.ts";
import {
  SiteAdaptiveSchemaRef,
  SiteAgentsContextEnum,
  SiteEdgeRef,
  SiteRef,
  SiteTypeEnum,
  SiteVisibilityEnum,
} from "./site.graphql.ts";
import {
  createSite,
  createSiteSchema,
  deleteSite,
  type SiteAdaptiveSchema,
  setSitePublished,
  siteAdaptiveContentSchema,
  updateAdaptiveSchema,
  updateAdaptiveSchemaSchema,
  updateSite,
  updateSiteSchema,
} from "./site.service.ts";
import { siteOrder } from "./structure-sql.ts";

/* A site's writes: its inputs, payloads and mutations (the site's reads are in site.graphql.ts). */

const CreateSiteInput = builder.inputType("CreateSiteInput", {
  description: "A new site.",
  fields: (t) => ({
    type: t.field({
      type: SiteTypeEnum,
      description: describeInputField(createSiteSchema, "type"),
      extensions: checkedByService(createSiteSchema, 1),
    }),
    title: t.string({ description: describeInputField(createSiteSchema, "title") }),
    visibility: t.field({
      type: SiteVisibilityEnum,
      description: describeInputField(createSiteSchema, "visibility"),
      extensions: checkedByService(createSiteSchema, 1),
    }),
    spaces: t.idList({ description: describeInputField(createSiteSchema, "spaces") }),
  }),
});

const SiteAdaptiveContentInput = builder.inputType("SiteAdaptiveContentInput", {
  description: "Adaptive content settings.",
  fields: (t) => ({
    enabled: t.boolean({ required: true, description: describeInputField(siteAdaptiveContentSchema, "enabled") }),
  }),
});

const UpdateSiteInput = builder.inputType("UpdateSiteInput", {
  description: "Changes to a site's settings; omitted fields stay as they are.",
  fields: (t) => ({
    title: t.string({ description: describeInputField(updateSiteSchema, "title") }),
    visibility: t.field({
      type: SiteVisibilityEnum,
      description: describeInputField(updateSiteSchema, "visibility"),
      extensions: checkedByService(updateSiteSchema, 1),
    }),
    basename: t.string({ description: describeInputField(updateSiteSchema, "basename") }),
    adaptiveContent: t.field({
      type: SiteAdaptiveContentInput,
      description: describeInputField(updateSiteSchema, "adaptiveContent"),
    }),
    agentsContext: t.field({
      type: SiteAgentsContextEnum,
      description: describeInputField(updateSiteSchema, "agentsContext"),
      extensions: checkedByService(updateSiteSchema, 1),
    }),
    defaultSiteSpace: t.id({ description: describeInputField(updateSiteSchema, "defaultSiteSpace") }),
    defaultSiteSection: t.id({ description: describeInputField(updateSiteSchema, "defaultSiteSection") }),
    proxy: t.string({ description: describeInputField(updateSiteSchema, "proxy") }),
  }),
});

const UpdateSiteAdaptiveSchemaInput = builder.inputType("UpdateSiteAdaptiveSchemaInput", {
  description: "A site's new adaptive schema.",
  fields: (t) => ({
    jsonSchema: t.field({
      type: "JSON",
      required: true,
      description: describeInputField(updateAdaptiveSchemaSchema, "jsonSchema"),
    }),
  }),
});

const CreateSitePayloadRef = payloadType<{ site: Site; siteEdge: Edge<Site> }>("createSite", {
  site: { type: SiteRef, description: "The new site." },
  siteEdge: { type: SiteEdgeRef, description: "The new site's edge in the organization's `sites`." },
});
const UpdateSitePayloadRef = payloadType<{ site: Site }>("updateSite", {
  site: { type: SiteRef, description: "The site, changed." },
});
const DeleteSitePayloadRef = payloadType<{ deletedId: string }>("deleteSite", {
  deletedId: { type: "ID", description: "The deleted site's id (for Relay's `@deleteRecord`)." },
});
const PublishSitePayloadRef = payloadType<{ site: Site }>("publishSite", {
  site: { type: SiteRef, description: "The site, published." },
});
const UnpublishSitePayloadRef = payloadType<{ site: Site }>("unpublishSite", {
  site: { type: SiteRef, description: "The site, unpublished." },
});
const UpdateSiteAdaptiveSchemaPayloadRef = payloadType<{ adaptiveSchema: SiteAdaptiveSchema }>(
  "updateSiteAdaptiveSchema",
  { adaptiveSchema: { type: SiteAdaptiveSchemaRef, description: "The site's new adaptive schema." } },
);

const siteErrors = {
  NOT_FOUND: "no such organization or site for the caller",
  FORBIDDEN: "not an organization admin",
} as const;

builder.mutationFields((t) => {
  const organizationId = t.arg.id({ required: true, description: "The organization's id." });
  return {
    createSite: t.field({
      type: CreateSitePayloadRef,
      ...describeMutation(
        "Creates a site, unpublished, with the given spaces; organization `create` role (createSite).",
        {
          NOT_FOUND: "no such organization for the caller",
          FORBIDDEN: "below the create role",
          BAD_USER_INPUT: "invalid input, or a space outside the organization",
        },
      ),
      args: { organizationId, input: t.arg({ type: CreateSiteInput, required: true, description: "The new site." }) },
      resolve: async (_root, args, ctx) => {
        const site = await createSite(ctx, args.organizationId, args.input);
        return { site, siteEdge: edgeOf(siteOrder, site) };
      },
    }),
    updateSite: t.field({
      type: UpdateSitePayloadRef,
      ...describeMutation("Changes a site's settings; organization admins (updateSiteById).", {
        ...siteErrors,
        BAD_USER_INPUT: "invalid input, or a default site space or section not on the site",
      }),
      args: {
        ...siteByIdArgs,
        input: t.arg({ type: UpdateSiteInput, required: true, description: "The settings to change." }),
      },
      resolve: async (_root, args, ctx) => ({
        site: await updateSite(ctx, args.organizationId, args.siteId, args.input),
      }),
    }),
    deleteSite: t.field({
      type: DeleteSitePayloadRef,
      ...describeMutation(
        "Deletes a site with its sections, site spaces and share links (not its spaces); organization admins. " +
          "Deleting a site that does not exist succeeds when `organizationId` is given (deleteSiteById).",
        {
          NOT_FOUND: "no such organization for the caller; without `organizationId`, no such site for the caller",
          FORBIDDEN: "not an organization admin",
        },
      ),
      args: siteByIdArgs,
      resolve: async (_root, args, ctx) => {
        await deleteSite(ctx, args.organizationId, args.siteId);
        return { deletedId: args.siteId };
      },
    }),
    publishSite: t.field({
      type: PublishSitePayloadRef,
      ...describeMutation("Publishes a site to its visitors; organization admins.", siteErrors),
      args: siteByIdArgs,
      resolve: async (_root, args, ctx) => ({
        site: await setSitePublished(ctx, args.organizationId, args.siteId, true),
      }),
    }),
    unpublishSite: t.field({
      type: UnpublishSitePayloadRef,
      ...describeMutation("Takes a site's published content offline; organization admins.", siteErrors),
      args: siteByIdArgs,
      resolve: async (_root, args, ctx) => ({
        site: await setSitePublished(ctx, args.organizationId, args.siteId, false),
      }),
    }),
    updateSiteAdaptiveSchema: t.field({
      type: UpdateSiteAdaptiveSchemaPayloadRef,
      ...describeMutation(
        "Sets a site's adaptive schema, replacing it; organization admins (updateSiteAdaptiveSchema).",
        { ...siteErrors, BAD_USER_INPUT: "not a valid JSON Schema" },
      ),
      args: {
        ...siteByIdArgs,
        input: t.arg({ type: UpdateSiteAdaptiveSchemaInput, required: true, description: "The new schema." }),
      },
      resolve: async (_root, args, ctx) => ({
        adaptiveSchema: await updateAdaptiveSchema(ctx, args.organizationId, args.siteId, args.input),
      }),
    }),
  };
});
