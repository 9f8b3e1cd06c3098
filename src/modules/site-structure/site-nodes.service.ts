import type { OrganizationPolicy } from "../../auth/policy.ts";
import type { ShareLink, SiteSectionGroup, SiteSpace } from "../../db/generated/client.ts";
import { keyedSql, keyedText } from "../../db/sql.ts";
import { loadedOrNull, nullWhereRefused } from "../../lib/errors.ts";
import type { RequestContext } from "../../request/context.ts";
import type { ShareLinkWithOrganization } from "./share-link.service.ts";
import { requireSite } from "./site.access.ts";
import { siteByIdLoader } from "./site.loaders.ts";
import { canAdministerSite, canReadSite } from "./site.policy.ts";
import { sectionByIdLoader } from "./site-section.loaders.ts";
import { liveSiteSpaceProbedSql } from "./site-space.loaders.ts";

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
    const site = await siteByIdLoader(ctx).load(row.siteId);
    if (!site) return null;
    await requireSite(ctx, site.organizationId, site.id, policy);
    return row;
  });
}

export async function loadVisibleSiteSections(ctx: RequestContext, ids: readonly string[]) {
  return throughSite(ctx, ids, await sectionByIdLoader(ctx).loadMany(ids), canReadSite);
}

export async function loadVisibleSectionGroups(ctx: RequestContext, ids: readonly string[]) {
  const rows: SiteSectionGroup[] = await ctx.prisma.siteSectionGroup.findMany({ where: { id: { in: [...ids] } } });
  return throughSite(ctx, ids, rows, canReadSite);
}

const liveSiteSpacesByIdSql = keyedSql(
  (ids) => `SELECT * FROM "SiteSpace" t WHERE t.id ${ids} AND ${liveSiteSpaceProbedSql}`,
);

/** Live site spaces only: deleting a space hides its site spaces, as in the site's lists. */
export async function loadVisibleSiteSpaces(ctx: RequestContext, ids: readonly string[]) {
  const { text, keys } = keyedText(liveSiteSpacesByIdSql, ids);
  const rows = await ctx.sql.rows<SiteSpace>(text, [keys]);
  return throughSite(ctx, ids, rows, canReadSite);
}

export async function loadVisibleShareLinks(
  ctx: RequestContext,
  ids: readonly string[],
): Promise<(ShareLinkWithOrganization | null)[]> {
  const rows: ShareLink[] = await ctx.prisma.shareLink.findMany({ where: { id: { in: [...ids] } } });
  const links = await throughSite(ctx, ids, rows, canAdministerSite);
  const sites = await siteByIdLoader(ctx).loadMany(links.map((link) => link?.siteId ?? ""));
  return links.map((link, index) => {
    const site = loadedOrNull(sites[index]);
    return link && site ? { ...link, organizationId: site.organizationId } : null;
  });
}
