import { requireOrganizationRole, requireViewer, viewerMembershipLoader } from "../../auth/access.ts";
import type { RequestContext } from "../../context.ts";
import type { Role, Site } from "../../db/generated/client.ts";
import { NotFoundError } from "../../errors.ts";
import { siteByIdLoader } from "./site.loaders.ts";

/** Sites for `node`/`nodes`: null for sites of organizations the viewer is not a member of. */
export async function loadVisibleSites(ctx: RequestContext, ids: readonly string[]): Promise<(Site | null)[]> {
  requireViewer(ctx);
  const sites = await siteByIdLoader(ctx).loadMany(ids);
  const found = sites.map((site) => (site && !(site instanceof Error) ? site : null));
  const memberships = await viewerMembershipLoader(ctx).loadMany(found.map((site) => site?.organizationId ?? ""));
  return found.map((site, index) => {
    const membership = memberships[index];
    return site && membership && !(membership instanceof Error) && !membership.disabled ? site : null;
  });
}

/**
 * The site `siteId` of organization `organizationId` when the viewer has at least `least` there: 404 for
 * non-members and for sites of other organizations, 403 for too low a role.
 */
export async function requireSite(
  ctx: RequestContext,
  organizationId: string,
  siteId: string,
  least: Role = "read",
): Promise<Site> {
  await requireOrganizationRole(ctx, organizationId, least);
  const site = await siteByIdLoader(ctx).load(siteId);
  if (!site || site.organizationId !== organizationId) throw new NotFoundError(`Site ${siteId} not found`);
  return site;
}
