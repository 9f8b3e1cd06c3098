import type { RequestContext } from "../../context.ts";
import type { Prisma, Site, SiteSpace, Space } from "../../db/generated/client.ts";
import { spaceByIdLoader } from "../space/space.loaders.ts";
import { loadVisibleSpaces } from "../space/space.service.ts";
import { lockSiteRow, openedAsPublished, requirePublishedSiteAccess, requireSite } from "./site.service.ts";
import { forgetStructure } from "./site-section.loaders.ts";

/**
 * The site for the structure reads that take a `shareKey` (`listSiteSections`, `listSiteSpaces`). With a key, the
 * published-content rule decides (members, or an active key of a published `share-link` site, ...); without one
 * they are management reads: a token and organization `read` (401 / 404 / 403 otherwise).
 */
export async function readableSite(
  ctx: RequestContext,
  organizationId: string,
  siteId: string,
  shareKey: string | null | undefined,
): Promise<Site> {
  if (shareKey) return (await requirePublishedSiteAccess(ctx, organizationId, siteId, { shareKey })).site;
  return requireSite(ctx, organizationId, siteId, "read");
}

/**
 * Runs a structure write in one transaction, then drops the request's cached reads of that site's structure. The
 * transaction first locks the site's row: structure writes of one site run one after another, so a path chosen
 * from the paths read (a section's or site space's path made from a title) is still free when it is written.
 * The unique indexes on those paths stay the guard of last resort (a 409).
 */
export async function writeStructure<Result>(
  ctx: RequestContext,
  siteId: string,
  write: (tx: Prisma.TransactionClient) => Promise<Result>,
): Promise<Result> {
  const result = await ctx.prisma.$transaction(async (tx) => {
    await lockSiteRow(tx, siteId);
    return write(tx);
  });
  forgetStructure(ctx, siteId);
  return result;
}

/**
 * The space a site space shows, in nested reads. Through published content (a site opened with
 * `requirePublishedSiteAccess` in this request) it is shown, as the published site shows it to every visitor;
 * management reads show it only to a caller who may read the space (the site's readers do not all; null otherwise).
 */
export async function siteSpaceSpace(ctx: RequestContext, siteSpace: SiteSpace): Promise<Space | null> {
  if (openedAsPublished(ctx, siteSpace.siteId)) {
    // Reads only reach site spaces of live spaces, so the space is there.
    const space = await spaceByIdLoader(ctx).load(siteSpace.spaceId);
    if (!space) throw new Error(`Space ${siteSpace.spaceId} of site space ${siteSpace.id} is missing`);
    return space;
  }
  if (!ctx.viewer) return null;
  return (await loadVisibleSpaces(ctx, [siteSpace.spaceId]))[0] ?? null;
}
