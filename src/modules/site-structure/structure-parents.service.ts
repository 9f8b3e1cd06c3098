import type { Site } from "../../db/generated/client.ts";
import { NotFoundError } from "../../lib/errors.ts";
import type { RequestContext } from "../../request/context.ts";
import { requireSite, siteOrganizationId } from "./site.access.ts";
import { canAdministerSite } from "./site.policy.ts";
import { structureReads } from "./structure-reads.ts";

/** The parent ids a mutation on a site's item may be given; the item's own id names them when they are not. */
export interface SiteParents {
  organizationId?: string | null;
  siteId?: string | null;
}

/** An item of a site's structure, or one of its share links, by its own id. */
export interface SiteItem {
  type: "SiteSection" | "SiteSectionGroup" | "SiteSpace" | "ShareLink";
  id: string;
}

const itemNames: Record<SiteItem["type"], string> = {
  SiteSection: "Site section",
  SiteSectionGroup: "Section group",
  SiteSpace: "Site space",
  ShareLink: "Share link",
};

async function siteIdOf(ctx: RequestContext, item: SiteItem): Promise<string | null> {
  const where = { where: { id: item.id }, select: { siteId: true } };
  switch (item.type) {
    case "SiteSection":
      return (await structureReads(ctx).section.load(item.id))?.siteId ?? null;
    case "SiteSectionGroup":
      return (await ctx.prisma.siteSectionGroup.findUnique(where))?.siteId ?? null;
    case "SiteSpace":
      return (await ctx.prisma.siteSpace.findUnique(where))?.siteId ?? null;
    case "ShareLink":
      return (await ctx.prisma.shareLink.findUnique(where))?.siteId ?? null;
  }
}

/**
 * The site of an item a mutation acts on, checked as `requireSite` does with `canAdministerSite`: changing an item
 * is administering its site. Both parent ids given: they decide, as they always did (REST paths pass them). Otherwise the item names its site and the site its
 * organization; a parent id that is given still has to match. A wrong one, and a caller who may not see the item,
 * get the item's not-found (`siteOrganizationId`).
 */
export async function requireItemSite(ctx: RequestContext, given: SiteParents, item: SiteItem): Promise<Site> {
  if (given.organizationId && given.siteId)
    return requireSite(ctx, given.organizationId, given.siteId, canAdministerSite);
  const notFound = `${itemNames[item.type]} ${item.id} not found`;
  const siteId = given.siteId ?? (await siteIdOf(ctx, item));
  if (!siteId) throw new NotFoundError(notFound);
  const organizationId = await siteOrganizationId(ctx, null, siteId, notFound);
  if (given.organizationId && given.organizationId !== organizationId) throw new NotFoundError(notFound);
  return requireSite(ctx, organizationId, siteId, canAdministerSite);
}
