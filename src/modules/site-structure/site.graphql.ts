import type { Site } from "../../db/generated/client.ts";
import { builder } from "../../graphql/builder.ts";
import { OrganizationRef } from "../organization/organization.graphql.ts";
import { loadVisibleSites } from "./site.access.ts";
import { siteSpaceCountLoader } from "./site.loaders.ts";
import {
  createSite,
  deleteSite,
  getAdaptiveSchema,
  getSite,
  listAdaptiveTemplateConditions,
  listSites,
  type SiteAdaptiveSchema,
  setSitePublished,
  sitePublishedBaseUrl,
  siteUrls,
  siteVisitorAuthKey,
  updateAdaptiveSchema,
  updateSite,
} from "./site.service.ts";

export const SiteRef = builder.objectRef<Site>("Site");

const SiteUrlsRef = builder
  .objectRef<{ location: string; app: string; published: string | null }>("SiteUrls")
  .implement({
    fields: (t) => ({
      location: t.exposeString("location"),
      app: t.exposeString("app"),
      published: t.exposeString("published", { nullable: true, description: "Only while the site is published." }),
    }),
  });

const SiteProxyRef = builder.objectRef<{ origin: string; target: string }>("SiteProxy").implement({
  description: "The site served under another host's path (`origin`), proxied to its published URL (`target`).",
  fields: (t) => ({ origin: t.exposeString("origin"), target: t.exposeString("target") }),
});

const SiteAdaptiveContentRef = builder.objectRef<{ enabled: boolean }>("SiteAdaptiveContent").implement({
  fields: (t) => ({ enabled: t.exposeBoolean("enabled") }),
});

const SiteFeatureRef = builder.objectRef<{ id: string; plan: string; frozen: boolean }>("SiteFeature").implement({
  description: "A premium feature of a site (there are no plans here, so no site lists any).",
  fields: (t) => ({ id: t.exposeString("id"), plan: t.exposeString("plan"), frozen: t.exposeBoolean("frozen") }),
});

const SiteAdaptiveSchemaRef = builder.objectRef<SiteAdaptiveSchema>("SiteAdaptiveSchema").implement({
  fields: (t) => ({
    jsonSchema: t.field({ type: "JSON", resolve: (schema) => schema.jsonSchema }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
  }),
});

const SiteAdaptiveTemplateConditionRef = builder
  .objectRef<{ description: string; condition: string }>("SiteAdaptiveTemplateCondition")
  .implement({
    fields: (t) => ({ description: t.exposeString("description"), condition: t.exposeString("condition") }),
  });

const SiteAdaptiveTemplateConditionsRef = builder
  .objectRef<{ items: { description: string; condition: string }[] }>("SiteAdaptiveTemplateConditions")
  .implement({
    fields: (t) => ({ items: t.field({ type: [SiteAdaptiveTemplateConditionRef], resolve: (list) => list.items }) }),
  });

builder.node(SiteRef, {
  description: "A published documentation site of an organization.",
  id: { resolve: (site) => site.id },
  loadMany: (ids, ctx) => loadVisibleSites(ctx, ids),
  fields: (t) => ({
    title: t.exposeString("title"),
    type: t.string({
      description: "basic, premium, ultimate, sponsored, legacy-basic or legacy-premium.",
      resolve: (site) => site.type,
    }),
    appliedType: t.string({
      description: "The type in effect (no plan freezes a site here).",
      resolve: (site) => site.type,
    }),
    visibility: t.exposeString("visibility", { description: "public, unlisted, share-link or visitor-auth." }),
    published: t.exposeBoolean("published"),
    hostname: t.exposeString("hostname", { nullable: true }),
    basename: t.exposeString("basename", { nullable: true }),
    proxy: t.field({
      type: SiteProxyRef,
      nullable: true,
      resolve: (site, _args, ctx) =>
        site.proxy ? { origin: site.proxy, target: sitePublishedBaseUrl(ctx, site.organizationId, site.id) } : null,
    }),
    adaptiveContent: t.field({
      type: SiteAdaptiveContentRef,
      resolve: (site) => ({ enabled: site.adaptiveContentEnabled }),
    }),
    agentsContext: t.exposeString("agentsContext", { description: "excluded or included." }),
    siteSpaceCount: t.int({
      description: "Number of site spaces.",
      resolve: (site, _args, ctx) => siteSpaceCountLoader(ctx).load(site.id),
    }),
    features: t.field({ type: [SiteFeatureRef], resolve: () => [] }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    urls: t.field({ type: SiteUrlsRef, resolve: (site, _args, ctx) => siteUrls(ctx, site) }),
    visitorAuthKey: t.string({
      nullable: true,
      description:
        "Organization admins only: the HS256 secret that signs visitor JWTs of a `visitor-auth` site. Visitors send " +
        "the JWT as `Authorization: Bearer <jwt>` to read the published site.",
      resolve: (site, _args, ctx) => siteVisitorAuthKey(ctx, site),
    }),
    adaptiveSchema: t.field({
      type: SiteAdaptiveSchemaRef,
      description: "getSiteAdaptiveSchema (NOT_FOUND when never set)",
      resolve: (site, _args, ctx) => getAdaptiveSchema(ctx, site.organizationId, site.id),
    }),
    adaptiveTemplateConditions: t.field({
      type: SiteAdaptiveTemplateConditionsRef,
      description: "listSiteAdaptiveTemplateConditions: one suggested condition per boolean visitor claim.",
      resolve: async (site, _args, ctx) => ({
        items: await listAdaptiveTemplateConditions(ctx, site.organizationId, site.id),
      }),
    }),
  }),
});

builder.objectFields(OrganizationRef, (t) => ({
  sites: t.connection({
    type: SiteRef,
    description: "listSites",
    args: {
      space: t.arg.id({ description: "A space id: only the sites that show this space." }),
      title: t.arg.string({ description: "Case-insensitive title filter." }),
      published: t.arg.boolean({ description: "Only published (true) or unpublished (false) sites." }),
      type: t.arg.string({ description: "Only sites of this type (basic, premium, ...)." }),
    },
    resolve: (organization, args, ctx) =>
      listSites(ctx, organization.id, args, {
        space: args.space ? String(args.space) : null,
        title: args.title,
        published: args.published,
        type: args.type,
      }),
  }),
  site: t.field({
    type: SiteRef,
    description: "getSiteById",
    args: { id: t.arg.id({ required: true }) },
    resolve: (organization, args, ctx) => getSite(ctx, organization.id, String(args.id)),
  }),
}));

const CreateSiteInput = builder.inputType("CreateSiteInput", {
  fields: (t) => ({
    type: t.string({ description: "basic (default), premium, ultimate, sponsored, legacy-basic, legacy-premium." }),
    title: t.string({ description: "2..128 characters." }),
    visibility: t.string({ description: "public (default), unlisted, share-link, visitor-auth." }),
    spaces: t.stringList({ description: "Ids of spaces to add to the site." }),
  }),
});

const SiteAdaptiveContentInput = builder.inputType("SiteAdaptiveContentInput", {
  fields: (t) => ({ enabled: t.boolean({ required: true }) }),
});

const UpdateSiteInput = builder.inputType("UpdateSiteInput", {
  fields: (t) => ({
    title: t.string({ description: "2..128 characters." }),
    visibility: t.string({ description: "public, unlisted, share-link, visitor-auth." }),
    basename: t.string({ description: "1..100 characters." }),
    adaptiveContent: t.field({ type: SiteAdaptiveContentInput }),
    agentsContext: t.string({ description: "excluded or included." }),
    defaultSiteSpace: t.string({
      description: "A site space at the root, or in the default section when there is one.",
    }),
    defaultSiteSection: t.string({ description: "A section of the site." }),
    proxy: t.string({ description: "Host and path (`company.com/docs`, max 512); null removes the proxy." }),
  }),
});

const UpdateSiteAdaptiveSchemaInput = builder.inputType("UpdateSiteAdaptiveSchemaInput", {
  fields: (t) => ({
    jsonSchema: t.field({
      type: "JSON",
      required: true,
      description: "A draft-07 object schema of boolean visitor claims, with an optional `unsigned` object of them.",
    }),
  }),
});

builder.mutationFields((t) => {
  const siteArgs = { organizationId: t.arg.id({ required: true }), siteId: t.arg.id({ required: true }) };
  return {
    createSite: t.field({
      type: SiteRef,
      args: { organizationId: t.arg.id({ required: true }), input: t.arg({ type: CreateSiteInput, required: true }) },
      resolve: (_root, args, ctx) => createSite(ctx, String(args.organizationId), args.input),
    }),
    updateSiteById: t.field({
      type: SiteRef,
      args: { ...siteArgs, input: t.arg({ type: UpdateSiteInput, required: true }) },
      resolve: (_root, args, ctx) => updateSite(ctx, String(args.organizationId), String(args.siteId), args.input),
    }),
    deleteSiteById: t.boolean({
      description: "Deleting a site that does not exist succeeds.",
      args: siteArgs,
      resolve: async (_root, args, ctx) => {
        await deleteSite(ctx, String(args.organizationId), String(args.siteId));
        return true;
      },
    }),
    publishSite: t.field({
      type: SiteRef,
      args: siteArgs,
      resolve: (_root, args, ctx) => setSitePublished(ctx, String(args.organizationId), String(args.siteId), true),
    }),
    unpublishSite: t.field({
      type: SiteRef,
      args: siteArgs,
      resolve: (_root, args, ctx) => setSitePublished(ctx, String(args.organizationId), String(args.siteId), false),
    }),
    updateSiteAdaptiveSchema: t.field({
      type: SiteAdaptiveSchemaRef,
      args: { ...siteArgs, input: t.arg({ type: UpdateSiteAdaptiveSchemaInput, required: true }) },
      resolve: (_root, args, ctx) =>
        updateAdaptiveSchema(ctx, String(args.organizationId), String(args.siteId), args.input),
    }),
  };
});
