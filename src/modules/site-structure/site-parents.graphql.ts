import { builder } from "../../graphql/builder.ts";
import { ShareLinkRef } from "./share-link.graphql.ts";
import { SiteRef } from "./site.graphql.ts";
import { parentSite } from "./site.loaders.ts";
import { SiteSpaceRef } from "./site-space.graphql.ts";
import { SiteSectionGroupRef, SiteSectionRef } from "./structure-items.graphql.ts";

/** `site` on each node of a site's structure and on its share links: every node reaches its parent. */
for (const ref of [SiteSectionRef, SiteSectionGroupRef, SiteSpaceRef, ShareLinkRef] as const) {
  builder.objectFields(ref, (t) => ({
    siteId: t.exposeID("siteId", { description: "The site's id (the id of `site`)." }),
    site: t.field({
      type: SiteRef,
      description: "The site it belongs to.",
      resolve: (row, _args, ctx) => parentSite(ctx, row.siteId),
    }),
  }));
}
