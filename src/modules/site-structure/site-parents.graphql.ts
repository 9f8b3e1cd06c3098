import { builder } from "../../graphql/builder.ts";
import { OrganizationDefaultContentRef } from "../organization/organization.public.ts";
import { ShareLinkRef } from "./share-link.graphql.ts";
import { SiteRef } from "./site.graphql.ts";
import { SiteSpaceRef } from "./site-space.graphql.ts";
import { SiteSectionGroupRef, SiteSectionRef } from "./structure-items.graphql.ts";
import { structureReads } from "./structure-reads.ts";

/** `site` on each node of a site's structure and on its share links: every node reaches its parent. */
for (const ref of [SiteSectionRef, SiteSectionGroupRef, SiteSpaceRef, ShareLinkRef] as const) {
  builder.objectFields(ref, (t) => ({
    siteId: t.exposeID("siteId", { description: "The site's id (the id of `site`)." }),
    site: t.field({
      type: SiteRef,
      description: "The site it belongs to.",
      resolve: (row, _args, ctx) => structureReads(ctx).parentSite(row.siteId),
    }),
  }));
}

// Here rather than in site-space.graphql.ts: the section type's file imports the site space's.
builder.objectFields(SiteSpaceRef, (t) => ({
  section: t.field({
    type: SiteSectionRef,
    nullable: true,
    description: "Its section; null at the site root.",
    resolve: (siteSpace, _args, ctx) => structureReads(ctx).parentSection(siteSpace.sectionId),
  }),
}));

/** The organization's landing site: its readers are the organization's members, who read its sites. */
builder.objectFields(OrganizationDefaultContentRef, (t) => ({
  site: t.field({
    type: SiteRef,
    nullable: true,
    description: "The site; null when it no longer exists.",
    resolve: (content, _args, ctx) => structureReads(ctx).site.load(content.site),
  }),
}));
