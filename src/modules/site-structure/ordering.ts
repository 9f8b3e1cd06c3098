import type { Prisma } from "../../db/generated/client.ts";
import { typeOfId } from "../../platform/ids.ts";
import type { RequestContext } from "../../request/context.ts";
import { structureReads } from "./structure-reads.ts";

/**
 * Stores `ids` order as positions 0..n-1. Sections and section groups share one sequence per parent (the site
 * root or a group), so the structure can interleave them; site spaces have their own per scope.
 */
export async function writePositions(tx: Prisma.TransactionClient, ids: readonly string[]): Promise<void> {
  for (const [position, id] of ids.entries()) {
    const type = typeOfId(id);
    if (type === "SiteSection") await tx.siteSection.update({ where: { id }, data: { position } });
    else if (type === "SiteSectionGroup") await tx.siteSectionGroup.update({ where: { id }, data: { position } });
    else await tx.siteSpace.update({ where: { id }, data: { position } });
  }
}

/** Ids of the items (sections and groups) directly under a group, or at the site root for `groupId` null. */
export async function structureSiblings(tx: Prisma.TransactionClient, siteId: string, groupId: string | null) {
  const [sections, groups] = await Promise.all([
    tx.siteSection.findMany({ where: { siteId, sectionGroupId: groupId }, select: { id: true, position: true } }),
    tx.siteSectionGroup.findMany({ where: { siteId, parentGroupId: groupId }, select: { id: true, position: true } }),
  ]);
  return [...sections, ...groups]
    .sort((a, b) => a.position - b.position || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((item) => item.id);
}

/** The next free position under a parent (sections and groups share it). */
export async function nextStructurePosition(tx: Prisma.TransactionClient, siteId: string, groupId: string | null) {
  const [section, group] = await Promise.all([
    tx.siteSection.aggregate({ where: { siteId, sectionGroupId: groupId }, _max: { position: true } }),
    tx.siteSectionGroup.aggregate({ where: { siteId, parentGroupId: groupId }, _max: { position: true } }),
  ]);
  return Math.max(section._max.position ?? -1, group._max.position ?? -1) + 1;
}

/**
 * Locks a site's row for the rest of the transaction. Every transaction that writes a site's structure takes it
 * first, so they run one after another and never lock each other's rows in opposite orders.
 */
export async function lockSiteRow(tx: Prisma.TransactionClient, siteId: string): Promise<void> {
  await tx.$queryRaw`SELECT 1 FROM "Site" WHERE id = ${siteId} FOR NO KEY UPDATE`;
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
  structureReads(ctx).forget(siteId);
  return result;
}
