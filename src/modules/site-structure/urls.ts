import type { RequestContext } from "../../context.ts";
import type { SiteSection, SiteSpace } from "../../db/generated/client.ts";
import { builder } from "../../graphql/builder.ts";
import { siteByIdLoader } from "./site.loaders.ts";
import { siteUrls } from "./site.service.ts";
import { sectionByIdLoader } from "./site-section.loaders.ts";

export const structureUrlsRef = builder.objectRef<{ published: string | null }>("SiteStructureUrls").implement({
  description: "Where a section or site space is found.",
  fields: (t) => ({
    published: t.exposeString("published", {
      nullable: true,
      description: "Its URL under the site's published content; null while the site is not published.",
    }),
  }),
});

/** The site's published URL, or null while it is not published. */
async function publishedBase(ctx: RequestContext, siteId: string): Promise<string | null> {
  const site = await siteByIdLoader(ctx).load(siteId);
  return site ? siteUrls(ctx, site).published : null;
}

/** The published URL followed by the item's paths: where a visitor finds the section or site space. */
function under(base: string | null, paths: string[]) {
  return { published: base ? [base, ...paths.map(encodeURIComponent)].join("/") : null };
}

export async function sectionUrls(ctx: RequestContext, section: SiteSection) {
  return under(await publishedBase(ctx, section.siteId), [section.path]);
}

export async function siteSpaceUrls(ctx: RequestContext, siteSpace: SiteSpace) {
  const base = await publishedBase(ctx, siteSpace.siteId);
  // The section's path matters only under a published URL: lists of unpublished sites skip reading sections.
  const section = base && siteSpace.sectionId ? await sectionByIdLoader(ctx).load(siteSpace.sectionId) : null;
  return under(base, section ? [section.path, siteSpace.path] : [siteSpace.path]);
}
