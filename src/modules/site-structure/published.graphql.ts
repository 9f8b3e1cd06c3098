import { builder } from "../../graphql/builder.ts";
import { defaultSiteCustomization } from "./customizations.ts";
import { type PublishedSiteAccess, requirePublishedSiteAccess } from "./site.access.ts";
import { SiteRef } from "./site.graphql.ts";
import { SiteStructureRef } from "./site-section.graphql.ts";
import { publishedStructure } from "./site-section.service.ts";

// Apart from site.graphql.ts because the structure types of site-section.graphql.ts build on `SiteRef`.
const PublishedContentSiteRef = builder.objectRef<PublishedSiteAccess>("PublishedContentSite").implement({
  description: "A site as one visitor sees it: sections and site spaces whose conditions the visitor passes.",
  fields: (t) => ({
    site: t.field({ type: SiteRef, resolve: (access) => access.site }),
    structure: t.field({
      type: SiteStructureRef,
      resolve: (access, _args, ctx) => publishedStructure(ctx, access.site, access.visitorClaims),
    }),
    customizations: t.field({
      type: "JSON",
      description: "`{ site, siteSpaces }`: the default customization, as sites have no settings of their own here.",
      resolve: () => ({ site: defaultSiteCustomization, siteSpaces: {} }),
    }),
    scripts: t.field({
      type: ["JSON"],
      description: "Integration scripts (no integrations here: always empty).",
      resolve: () => [],
    }),
  }),
});

builder.queryFields((t) => ({
  publishedContentSite: t.field({
    type: PublishedContentSiteRef,
    description:
      "getPublishedContentSite: open without an API token to published public/unlisted sites, share-link sites " +
      "with an active `shareKey`, and visitor-auth sites with a visitor JWT (`Authorization: Bearer <jwt>`).",
    args: {
      organizationId: t.arg.id({ required: true }),
      siteId: t.arg.id({ required: true }),
      shareKey: t.arg.string(),
    },
    resolve: (_root, args, ctx) =>
      requirePublishedSiteAccess(ctx, String(args.organizationId), String(args.siteId), { shareKey: args.shareKey }),
  }),
}));
