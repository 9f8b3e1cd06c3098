import type { Site } from "../../db/generated/client.ts";
import type { RequestContext } from "../../request/context.ts";

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

/** The published URL followed by the item's paths: where a visitor finds the section or site space. */
export function urlsUnder(base: string | null, paths: string[]): StructureUrls {
  return { published: base ? [base, ...paths.map(encodeURIComponent)].join("/") : null };
}
