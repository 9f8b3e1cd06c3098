import type { Site, SiteSection } from "../../db/generated/client.ts";
import type { RequestContext } from "../../request/context.ts";
import { defineSettled, loadedByKey } from "../../request/loaders.ts";
import { siteByIdLoader } from "./site.loaders.ts";
import { sectionByIdLoader } from "./site-section.loaders.ts";
import type { SiteSpaceRow } from "./site-space.loaders.ts";

export type StructureUrls = { published: string | null };

/** Where the site's published content is read (this service renders no HTML: its published form is the API's). */
export function sitePublishedBaseUrl(ctx: RequestContext, organizationId: string, siteId: string): string {
  return `${ctx.config.publicUrl}/v1/orgs/${organizationId}/sites/${siteId}/published`;
}

export function siteUrls(ctx: RequestContext, site: Site) {
  return {
    location: `${ctx.config.publicUrl}/v1/orgs/${site.organizationId}/sites/${site.id}`,
    app: `${ctx.config.publicUrl}/graphql`,
    published: site.published ? sitePublishedBaseUrl(ctx, site.organizationId, site.id) : null,
  };
}

/** The site's published URL, or null while it is not published. */
async function publishedBase(ctx: RequestContext, siteId: string): Promise<string | null> {
  const site = await siteByIdLoader(ctx).load(siteId);
  return site ? siteUrls(ctx, site).published : null;
}

/** The published URL followed by the item's paths: where a visitor finds the section or site space. */
function under(base: string | null, paths: string[]): StructureUrls {
  return { published: base ? [base, ...paths.map(encodeURIComponent)].join("/") : null };
}

export async function sectionUrls(ctx: RequestContext, section: SiteSection) {
  return under(await publishedBase(ctx, section.siteId), [section.path]);
}

/** Site spaces' URLs settled with their list, by row. */
const settledUrls = defineSettled<SiteSpaceRow, StructureUrls>();

/** A site space's URLs: at once when its list settled them. */
export function siteSpaceUrls(ctx: RequestContext, siteSpace: SiteSpaceRow): Promise<StructureUrls> | StructureUrls {
  return settledUrls.get(ctx, siteSpace) ?? loadSiteSpaceUrls(ctx, siteSpace);
}

async function loadSiteSpaceUrls(ctx: RequestContext, siteSpace: SiteSpaceRow) {
  const base = await publishedBase(ctx, siteSpace.siteId);
  // The section's path matters only under a published URL: lists of unpublished sites skip reading sections.
  const section = base && siteSpace.sectionId ? await sectionByIdLoader(ctx).load(siteSpace.sectionId) : null;
  return under(base, section ? [section.path, siteSpace.path] : [siteSpace.path]);
}

/** Settles the URLs of a list's site spaces: each site's published URL once, and sections only under one. */
export async function settleSiteSpaceUrls(ctx: RequestContext, siteSpaces: readonly SiteSpaceRow[]): Promise<void> {
  const siteIds = [...new Set(siteSpaces.map((siteSpace) => siteSpace.siteId))];
  const bases = new Map(await Promise.all(siteIds.map(async (id) => [id, await publishedBase(ctx, id)] as const)));
  const sectionIds = new Set<string>();
  for (const { siteId, sectionId } of siteSpaces) if (bases.get(siteId) && sectionId) sectionIds.add(sectionId);
  const ids = [...sectionIds];
  const sections = loadedByKey(ids, await sectionByIdLoader(ctx).loadMany(ids));
  for (const siteSpace of siteSpaces) {
    const base = bases.get(siteSpace.siteId) ?? null;
    const sectionId = base ? siteSpace.sectionId : null;
    // A section that failed to load leaves its site spaces' URLs to their field.
    if (sectionId !== null && !sections.has(sectionId)) continue;
    const section = sectionId === null ? null : sections.get(sectionId);
    settledUrls.set(ctx, siteSpace, under(base, section ? [section.path, siteSpace.path] : [siteSpace.path]));
  }
}
