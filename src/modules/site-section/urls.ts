import type { RequestContext } from "../../context.ts";
import type { SiteSection, SiteSpace } from "../../db/generated/client.ts";
import { builder } from "../../graphql/builder.ts";
import { siteByIdLoader } from "../site/site.loaders.ts";
import { siteUrls } from "../site/site.service.ts";
import { sectionByIdLoader } from "./site-section.loaders.ts";

export const structureUrlsRef = builder.objectRef<{ published: string | null }>("SiteStructureUrls").implement({
  fields: (t) => ({
    published: t.exposeString("published", { nullable: true, description: "Only while the site is published." }),
  }),
});

/** The site's published URL followed by the item's paths: where a visitor finds the section or site space. */
async function publishedUnder(ctx: RequestContext, siteId: string, paths: string[]) {
  const site = await siteByIdLoader(ctx).load(siteId);
  const base = site ? siteUrls(ctx, site).published : null;
  return { published: base ? [base, ...paths.map(encodeURIComponent)].join("/") : null };
}

export function sectionUrls(ctx: RequestContext, section: SiteSection) {
  return publishedUnder(ctx, section.siteId, [section.path]);
}

export async function siteSpaceUrls(ctx: RequestContext, siteSpace: SiteSpace) {
  const section = siteSpace.sectionId ? await sectionByIdLoader(ctx).load(siteSpace.sectionId) : null;
  return publishedUnder(ctx, siteSpace.siteId, section ? [section.path, siteSpace.path] : [siteSpace.path]);
}
