import type { RequestContext } from "../../context.ts";
import type { Prisma, Site } from "../../db/generated/client.ts";
import { lockSiteRow, requirePublishedSiteAccess, requireSite } from "../site/site.service.ts";
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
