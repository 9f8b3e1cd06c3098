import { builder } from "../../graphql/builder.ts";
import { defaultSiteCustomization } from "./customizations.ts";
import { type PublishedSiteAccess, requirePublishedSiteAccess } from "./site.access.ts";
import { SiteRef } from "./site.graphql.ts";
import { SiteStructureRef } from "./site-section.graphql.ts";
import { publishedStructure } from "./site-section.service.ts";

// Apart from site.graphql.ts because the structure types of site-section.graphql.ts build on `SiteRef`.
const PublishedContentSiteRef = builder.objectRef<PublishedSiteAccess>("PublishedContentSite").implement({
  extensions: { restObjectName: "published-content-site" },
  description: "A site as one visitor sees it: sections and site spaces whose conditions the visitor passes.",
  fields: (t) => ({
    site: t.field({ type: SiteRef, description: "The site.", resolve: (access) => access.site }),
    structure: t.field({
      type: SiteStructureRef,
      description: "The sections and site spaces the visitor may see, in order.",
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
      "A published site as its visitor sees it. Open without an API token to published public/unlisted sites, " +
      "share-link sites with an active `shareKey`, and visitor-auth sites with a visitor JWT " +
      "(`Authorization: Bearer <jwt>`); organization members read it too (getPublishedContentSite).",
    args: {
      organizationId: t.arg.id({ required: true, description: "The organization's id." }),
      siteId: t.arg.id({ required: true, description: "The site's id." }),
      shareKey: t.arg.string({ description: "The key of an active share link of the site, for share-link sites." }),
    },
    resolve: (_root, args, ctx) =>
      requirePublishedSiteAccess(ctx, args.organizationId, args.siteId, { shareKey: args.shareKey }),
  }),
}));
