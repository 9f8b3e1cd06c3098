import type { RequestContext } from "../../context.ts";
import type { Prisma, Site } from "../../db/generated/client.ts";
import { requirePublishedSiteAccess, requireSite } from "../site/site.service.ts";
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

/** Runs a structure write in one transaction, then drops the request's cached reads of that site's structure. */
export async function writeStructure<Result>(
  ctx: RequestContext,
  siteId: string,
  write: (tx: Prisma.TransactionClient) => Promise<Result>,
): Promise<Result> {
  const result = await ctx.prisma.$transaction(write);
  forgetStructure(ctx, siteId);
  return result;
}
