import type { Site } from "../../db/generated/client.ts";
import { builder } from "../../graphql/builder.ts";
import { publicEnum } from "../../graphql/enums.ts";
import { describeInputField } from "../../graphql/input-description.ts";
import { dateBoundFields, orderByDescription, orderInput, timeRangeKeys } from "../../graphql/list-order.ts";
import { idColumn } from "../../graphql/node-ids.ts";
import { addOrganizationParent, OrganizationRef } from "../organization/organization.public.ts";
import { loadVisibleSites } from "./site.access.ts";
import {
  getAdaptiveSchema,
  getSite,
  listAdaptiveTemplateConditions,
  listSites,
  type SiteAdaptiveSchema,
  siteFilterSchema,
  siteListOrder,
  siteVisitorAuthKey,
} from "./site.service.ts";
import { structureReads } from "./structure-reads.ts";
import { sitePublishedBaseUrl, siteUrls } from "./urls.ts";

export const SiteRef = builder.objectRef<Site>("Site");

const SiteUrlsRef = builder
  .objectRef<{ location: string; app: string; published: string | null }>("SiteURLs")
  .implement({
    description: "Where a site is found.",
    fields: (t) => ({
      location: t.expose("location", { type: "URL", description: "The site's URL in the REST API." }),
      app: t.expose("app", { type: "URL", description: "The URL of this GraphQL API, where the site is managed." }),
      published: t.expose("published", {
        type: "URL",
        nullable: true,
        description: "Where its published content is read; null while the site is not published.",
      }),
    }),
  });

const SiteProxyRef = builder.objectRef<{ origin: string; target: string }>("SiteProxy").implement({
  description: "The site served under another host's path (`origin`), proxied to its published URL (`target`).",
  fields: (t) => ({
    origin: t.exposeString("origin", { description: "Host and path the site is served under, e.g. company.com/docs." }),
    target: t.expose("target", { type: "URL", description: "The published URL the proxy forwards to." }),
  }),
});

const SiteAdaptiveContentRef = builder.objectRef<{ enabled: boolean }>("SiteAdaptiveContent").implement({
  description: "Adaptive content: sections and site spaces shown or hidden by conditions on visitor claims.",
  fields: (t) => ({
    enabled: t.exposeBoolean("enabled", { description: "Whether the site adapts its content to visitor claims." }),
  }),
});

export const SiteTypeEnum = publicEnum<string>("SiteType", "A site's plan type.", {
  basic: "The basic plan.",
  premium: "The premium plan.",
  ultimate: "The ultimate plan.",
  sponsored: "A sponsored site.",
  "legacy-basic": "The former basic plan.",
  "legacy-premium": "The former premium plan.",
});

export const SiteVisibilityEnum = publicEnum<string>("SiteVisibility", "Who may read a published site.", {
  public: "Anyone; the site is listed.",
  unlisted: "Anyone with the URL.",
  "share-link": "Visitors with an active share link's key.",
  "visitor-auth": "Visitors with a JWT signed by the site's `visitorAuthKey`.",
});

export const SiteAgentsContextEnum = publicEnum<string>(
  "SiteAgentsContext",
  "Whether a site's content is offered to AI agents as context.",
  { excluded: "Not offered.", included: "Offered." },
);

const SiteFeatureRef = builder.objectRef<{ id: string; plan: string; frozen: boolean }>("SiteFeature").implement({
  description: "A premium feature of a site (there are no plans here, so no site lists any).",
  fields: (t) => ({
    name: t.exposeID("id", { description: "The feature's name." }),
    plan: t.exposeString("plan", { description: "The plan that includes it." }),
    frozen: t.exposeBoolean("frozen", { description: "Whether the feature is kept but can no longer be changed." }),
  }),
});

export const SiteAdaptiveSchemaRef = builder.objectRef<SiteAdaptiveSchema>("SiteAdaptiveSchema").implement({
  extensions: { restObjectName: "site-adaptive-schema" },
  description: "The visitor claims a site's conditions may read, as a JSON schema.",
  fields: (t) => ({
    jsonSchema: t.field({
      type: "JSON",
      description:
        "A draft-07 object schema of boolean visitor claims, with an optional `unsigned` object of them (claims " +
        "visitors may send unsigned).",
      resolve: (schema) => schema.jsonSchema,
    }),
    updatedAt: t.expose("updatedAt", { type: "DateTime", description: "When it was last set (ISO 8601)." }),
  }),
});

const SiteAdaptiveTemplateConditionRef = builder
  .objectRef<{ description: string; condition: string }>("SiteAdaptiveTemplateCondition")
  .implement({
    description: "A suggested condition for a section or site space, made from one boolean claim.",
    fields: (t) => ({
      description: t.exposeString("description", { description: "The claim's description, from the schema." }),
      condition: t.exposeString("condition", {
        description: "The condition expression, e.g. `visitor.claims.isBetaUser`.",
      }),
    }),
  });

const SiteAdaptiveTemplateConditionsRef = builder
  .objectRef<{ items: { description: string; condition: string }[] }>("SiteAdaptiveTemplateConditions")
  .implement({
    description: "The conditions suggested by a site's adaptive schema.",
    fields: (t) => ({
      items: t.field({
        type: [SiteAdaptiveTemplateConditionRef],
        description: "One per boolean claim of the schema, signed claims first; empty without a schema.",
        resolve: (list) => list.items,
      }),
    }),
  });

builder.node(SiteRef, {
  extensions: { restObjectName: "site" },
  description: "A published documentation site of an organization.",
  id: idColumn,
  loadMany: (ids, ctx) => loadVisibleSites(ctx, ids),
  fields: (t) => ({
    title: t.exposeString("title", { description: "The site's title (2..128 characters)." }),
    type: t.expose("type", { type: SiteTypeEnum, description: "The site's plan type." }),
    appliedType: t.expose("type", {
      type: SiteTypeEnum,
      description: "The type in effect (no plan freezes a site here).",
    }),
    visibility: t.expose("visibility", { type: SiteVisibilityEnum, description: "Who may read the published site." }),
    published: t.exposeBoolean("published", { description: "Whether the site's content is published to visitors." }),
    hostname: t.exposeString("hostname", { nullable: true, description: "Custom hostname; null when it has none." }),
    basename: t.exposeString("basename", {
      nullable: true,
      description: "The path the site is served under on its host; null when it has none.",
    }),
    proxy: t.field({
      type: SiteProxyRef,
      nullable: true,
      description: "Where the site is served through a proxy; null when it is not.",
      resolve: (site, _args, ctx) =>
        site.proxy ? { origin: site.proxy, target: sitePublishedBaseUrl(ctx, site.organizationId, site.id) } : null,
    }),
    adaptiveContent: t.field({
      type: SiteAdaptiveContentRef,
      description: "Adaptive content settings.",
      resolve: (site) => ({ enabled: site.adaptiveContentEnabled }),
    }),
    agentsContext: t.expose("agentsContext", {
      type: SiteAgentsContextEnum,
      description: "Whether the site's content is offered to AI agents as context.",
    }),
    siteSpaceCount: t.int({
      description: "Number of site spaces of the site, in every section.",
      resolve: (site, _args, ctx) => structureReads(ctx).siteSpaceCount.load(site.id),
    }),
    features: t.field({
      type: [SiteFeatureRef],
      description: "Premium features of the site (always empty here).",
      resolve: () => [],
    }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When the site was created (ISO 8601)." }),
    urls: t.field({
      type: SiteUrlsRef,
      description: "Where the site is found.",
      resolve: (site, _args, ctx) => siteUrls(ctx, site),
    }),
    visitorAuthKey: t.string({
      nullable: true,
      description:
        "The HS256 secret (43 characters) that signs visitor JWTs of a `visitor-auth` site; organization admins " +
        "only (403 for others). Visitors send the JWT as `Authorization: Bearer <jwt>` to read the published site.",
      resolve: (site, _args, ctx) => siteVisitorAuthKey(ctx, site),
    }),
    adaptiveSchema: t.field({
      type: SiteAdaptiveSchemaRef,
      nullable: true,
      description:
        "The site's adaptive schema; null when it was never set. Organization members (getSiteAdaptiveSchema).",
      resolve: (site, _args, ctx) => getAdaptiveSchema(ctx, site.organizationId, site.id),
    }),
    adaptiveTemplateConditions: t.field({
      type: SiteAdaptiveTemplateConditionsRef,
      description:
        "One suggested condition per boolean claim of the adaptive schema; organization members " +
        "(listSiteAdaptiveTemplateConditions).",
      resolve: async (site, _args, ctx) => ({
        items: await listAdaptiveTemplateConditions(ctx, site.organizationId, site.id),
      }),
    }),
  }),
});

/** The edge of the organization's `sites`, shared with `createSite`'s payload. */
export const SiteEdgeRef = builder.edgeObject({ type: SiteRef, name: "OrganizationSitesConnectionEdge" });

const SiteOrderInput = orderInput("Site", "sites", siteListOrder.fields);

const siteFilter = (key: keyof typeof siteFilterSchema.shape) => describeInputField(siteFilterSchema, key);

const SiteFilterInput = builder.inputType("SiteFilter", {
  description: "Conditions on the sites listed, all of which must hold.",
  fields: (t) => ({
    titleContains: t.string({ description: siteFilter("titleContains") }),
    published: t.boolean({ description: siteFilter("published") }),
    type: t.field({ type: SiteTypeEnum, description: siteFilter("type") }),
    visibility: t.field({ type: SiteVisibilityEnum, description: siteFilter("visibility") }),
    ...dateBoundFields(t, siteFilterSchema, timeRangeKeys),
  }),
});

builder.objectFields(OrganizationRef, (t) => ({
  sites: t.connection(
    {
      type: SiteRef,
      description: "The organization's sites, oldest first; organization members (listSites).",
      args: {
        space: t.arg.id({ description: "A space id: only the sites that show this space." }),
        title: t.arg.string({ description: "Only sites whose title contains this text, ignoring case." }),
        published: t.arg.boolean({ description: "Only published (true) or unpublished (false) sites." }),
        orderBy: t.arg({ type: [SiteOrderInput], description: orderByDescription("oldest first") }),
        filter: t.arg({ type: SiteFilterInput, description: "Conditions on the sites listed." }),
      },
      resolve: (organization, args, ctx) =>
        listSites(
          ctx,
          organization.id,
          args,
          { space: args.space ?? null, title: args.title, published: args.published },
          args,
        ),
    },
    {},
    SiteEdgeRef,
  ),
  site: t.field({
    type: SiteRef,
    description: "One site of the organization; organization members (getSiteById).",
    args: { id: t.arg.id({ required: true, description: "The site's id." }) },
    resolve: (organization, args, ctx) => getSite(ctx, organization.id, args.id),
  }),
}));

addOrganizationParent(SiteRef);
