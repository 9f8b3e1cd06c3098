import type { OrganizationPolicy } from "../../auth/policy.ts";
import type { ShareLink, SiteSectionGroup } from "../../db/generated/client.ts";
import { loadedOrNull, nullWhereRefused } from "../../lib/errors.ts";
import type { RequestContext } from "../../request/context.ts";
import type { ShareLinkWithOrganization } from "./share-link.service.ts";
import { requireSite } from "./site.access.ts";
import { canAdministerSite, canReadSite } from "./site.policy.ts";
import { structureReads } from "./structure-reads.ts";

/*
 * `node`/`nodes` for what a site holds, visible where the site's own reads are: organization `read` for sections,
 * section groups and site spaces (`GET .../sections`, ...), `admin` for share links (`GET .../share-links`).
 */

/** Each id's row when `policy` allows the viewer in its site's organization, null otherwise. */
function throughSite<Row extends { id: string; siteId: string }>(
  ctx: RequestContext,
  ids: readonly string[],
  rows: readonly (Row | null | Error)[],
  policy: OrganizationPolicy,
): Promise<(Row | null)[]> {
  return nullWhereRefused(ids, rows, async (row) => {
    const site = await structureReads(ctx).site.load(row.siteId);
    if (!site) return null;
    await requireSite(ctx, site.organizationId, site.id, policy);
    return row;
  });
}

export async function loadVisibleSiteSections(ctx: RequestContext, ids: readonly string[]) {
  return throughSite(ctx, ids, await structureReads(ctx).section.loadMany(ids), canReadSite);
}

export async function loadVisibleSectionGroups(ctx: RequestContext, ids: readonly string[]) {
  const rows: SiteSectionGroup[] = await ctx.prisma.siteSectionGroup.findMany({ where: { id: { in: [...ids] } } });
  return throughSite(ctx, ids, rows, canReadSite);
}

/** Live site spaces only: deleting a space hides its site spaces, as in the site's lists. */
export async function loadVisibleSiteSpaces(ctx: RequestContext, ids: readonly string[]) {
  return throughSite(ctx, ids, await structureReads(ctx).liveSiteSpaces(ids), canReadSite);
}

export async function loadVisibleShareLinks(
  ctx: RequestContext,
  ids: readonly string[],
): Promise<(ShareLinkWithOrganization | null)[]> {
  const rows: ShareLink[] = await ctx.prisma.shareLink.findMany({ where: { id: { in: [...ids] } } });
  const links = await throughSite(ctx, ids, rows, canAdministerSite);
  const sites = await structureReads(ctx).site.loadMany(links.map((link) => link?.siteId ?? ""));
  return links.map((link, index) => {
    const site = loadedOrNull(sites[index]);
    return link && site ? { ...link, organizationId: site.organizationId } : null;
  });
}
