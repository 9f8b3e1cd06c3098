import { z } from "zod";
import type { Prisma, SiteSectionGroup } from "../../db/generated/client.ts";
import { InvalidInputError, NotFoundError } from "../../lib/errors.ts";
import { placeAmong } from "../../lib/placement.ts";
import { parseInput } from "../../lib/validation.ts";
import { type PageArgs, paginate } from "../../paging/pagination.ts";
import { newId } from "../../platform/ids.ts";
import type { RequestContext } from "../../request/context.ts";
import { nextStructurePosition, structureSiblings, writePositions, writeStructure } from "./ordering.ts";
import { requireSite, siteOrganizationId } from "./site.access.ts";
import { canAdministerSite, canReadSite } from "./site.policy.ts";
import { type GroupNode, iconSchema, type StructureItem } from "./site-section.service.ts";
import { requireItemSite } from "./structure-parents.service.ts";
import { structureReads } from "./structure-reads.ts";
import { sectionGroupOrder } from "./structure-sql.ts";

const groupTitleSchema = z.string().trim().min(1).max(100).describe("The group's title");

export async function listSectionGroups(ctx: RequestContext, organizationId: string, siteId: string, page: PageArgs) {
  const site = await requireSite(ctx, organizationId, siteId, canReadSite);
  return paginate<SiteSectionGroup>(page, {
    sort: sectionGroupOrder,
    where: { siteId: site.id },
    model: ctx.prisma.siteSectionGroup,
  });
}

/** A group's sections and child groups in order: from the built structure, else batched over all sites. */
export async function childrenOfGroup(ctx: RequestContext, group: GroupNode): Promise<StructureItem[]> {
  if (group.children) return group.children;
  const reads = structureReads(ctx);
  const [sections, groups] = await Promise.all([
    reads.sectionsOfSite().load(group.siteId),
    reads.sectionGroups.load(group.siteId),
  ]);
  return [
    ...sections.filter((section) => section.sectionGroupId === group.id),
    ...groups.filter((child) => child.parentGroupId === group.id),
  ].sort((a, b) => a.position - b.position || (a.id < b.id ? -1 : 1));
}

async function findGroup(tx: Prisma.TransactionClient, siteId: string, groupId: string) {
  const group = await tx.siteSectionGroup.findFirst({ where: { id: groupId, siteId } });
  if (!group) throw new NotFoundError(`Site section group ${groupId} not found`);
  return group;
}

/** Moves sections (ids in the body) into a group, at its end, in the given order; unknown ids are a 400. */
async function moveSectionsInto(tx: Prisma.TransactionClient, siteId: string, groupId: string, sectionIds: string[]) {
  const found = await tx.siteSection.findMany({ where: { siteId, id: { in: sectionIds } }, select: { id: true } });
  const known = new Set(found.map((row) => row.id));
  const unknown = sectionIds.filter((id) => !known.has(id));
  if (unknown.length > 0) throw new InvalidInputError(`sections: not sections of this site: ${unknown.join(", ")}`);
  let position = await nextStructurePosition(tx, siteId, groupId);
  for (const id of new Set(sectionIds)) {
    await tx.siteSection.update({ where: { id }, data: { sectionGroupId: groupId, position: position++ } });
  }
}

export const addGroupSchema = z.strictObject({
  title: groupTitleSchema,
  icon: iconSchema.nullish(),
  sections: z.array(z.string().min(1)).max(1000).optional().describe("Ids of sections to move into the group"),
  parent: z
    .string()
    .min(1)
    .nullish()
    .describe("Id of a root group to nest under (groups nest one level); omitted: the site root"),
});

/**
 * Adds a group at the site root or under `parent`. Groups nest one level: a parent must itself sit at the root,
 * which keeps every structure read a fixed depth.
 */
export async function addSectionGroup(
  ctx: RequestContext,
  organizationId: string | null | undefined,
  siteId: string,
  input: unknown,
) {
  const site = await requireSite(ctx, await siteOrganizationId(ctx, organizationId, siteId), siteId, canAdministerSite);
  const data = parseInput(addGroupSchema, input);
  return writeStructure(ctx, site.id, async (tx) => {
    const parentId = data.parent ?? null;
    if (parentId) {
      const parent = await tx.siteSectionGroup.findFirst({ where: { id: parentId, siteId: site.id } });
      if (!parent) throw new InvalidInputError(`parent: group ${parentId} not found in this site`);
      if (parent.parentGroupId) throw new InvalidInputError("parent: groups nest one level only");
    }
    const group = await tx.siteSectionGroup.create({
      data: {
        id: newId("SiteSectionGroup"),
        siteId: site.id,
        parentGroupId: parentId,
        title: data.title,
        icon: data.icon ?? null,
        position: await nextStructurePosition(tx, site.id, parentId),
        createdAt: ctx.clock.now(),
      },
    });
    await moveSectionsInto(tx, site.id, group.id, data.sections ?? []);
    return group;
  });
}

export const updateGroupSchema = z.strictObject({
  title: groupTitleSchema.optional(),
  icon: iconSchema.nullish().describe("Icon name; null removes it"),
});

export async function updateSectionGroup(
  ctx: RequestContext,
  organizationId: string | null | undefined,
  siteId: string | null | undefined,
  groupId: string,
  input: unknown,
) {
  const site = await requireItemSite(ctx, { organizationId, siteId }, { type: "SiteSectionGroup", id: groupId });
  const data = parseInput(updateGroupSchema, input);
  return writeStructure(ctx, site.id, async (tx) => {
    await findGroup(tx, site.id, groupId);
    return tx.siteSectionGroup.update({ where: { id: groupId }, data });
  });
}

/** Deletes a group; its sections and child groups move up to the group's parent, in the group's place. */
export async function deleteSectionGroup(
  ctx: RequestContext,
  organizationId: string | null | undefined,
  siteId: string | null | undefined,
  groupId: string,
) {
  const site = await requireItemSite(ctx, { organizationId, siteId }, { type: "SiteSectionGroup", id: groupId });
  await writeStructure(ctx, site.id, async (tx) => {
    const group = await tx.siteSectionGroup.findFirst({ where: { id: groupId, siteId: site.id } });
    if (!group) return;
    const children = await structureSiblings(tx, site.id, group.id);
    const siblings = await structureSiblings(tx, site.id, group.parentGroupId);
    await tx.siteSection.updateMany({
      where: { sectionGroupId: group.id },
      data: { sectionGroupId: group.parentGroupId },
    });
    await tx.siteSectionGroup.updateMany({
      where: { parentGroupId: group.id },
      data: { parentGroupId: group.parentGroupId },
    });
    await tx.siteSectionGroup.delete({ where: { id: group.id } });
    await writePositions(
      tx,
      siblings.flatMap((id) => (id === group.id ? children : [id])),
    );
  });
}

export const addSectionToGroupSchema = z.strictObject({
  sectionId: z.string().min(1).describe("Id of a section of the site; it moves to the end of the group"),
});

export async function addSectionToGroup(
  ctx: RequestContext,
  organizationId: string | null | undefined,
  siteId: string | null | undefined,
  groupId: string,
  input: unknown,
) {
  const site = await requireItemSite(ctx, { organizationId, siteId }, { type: "SiteSectionGroup", id: groupId });
  const { sectionId } = parseInput(addSectionToGroupSchema, input);
  return writeStructure(ctx, site.id, async (tx) => {
    const group = await findGroup(tx, site.id, groupId);
    await moveSectionsInto(tx, site.id, group.id, [sectionId]);
    const section = await tx.siteSection.findUniqueOrThrow({ where: { id: sectionId } });
    return { siteSection: section, siteSectionGroup: group };
  });
}

/**
 * Moves a section out of a group to the group's parent, right after the group; a no-op when it is not in it.
 * Returns the group (null when the site has no such group).
 */
export async function removeSectionFromGroup(
  ctx: RequestContext,
  organizationId: string | null | undefined,
  siteId: string | null | undefined,
  groupId: string,
  sectionId: string,
) {
  const site = await requireItemSite(ctx, { organizationId, siteId }, { type: "SiteSectionGroup", id: groupId });
  return writeStructure(ctx, site.id, async (tx) => {
    const group = await tx.siteSectionGroup.findFirst({ where: { id: groupId, siteId: site.id } });
    const section = await tx.siteSection.findFirst({
      where: { id: sectionId, siteId: site.id, sectionGroupId: groupId },
    });
    if (!group || !section) return group;
    await tx.siteSection.update({ where: { id: section.id }, data: { sectionGroupId: group.parentGroupId } });
    const siblings = await structureSiblings(tx, site.id, group.parentGroupId);
    await writePositions(tx, placeAmong(siblings, section.id, { after: group.id }));
    return group;
  });
}

export const groupPointerSchema = z.strictObject({
  type: z.enum(["site-section", "site-section-group"]).describe("The sibling's type"),
  id: z.string().min(1).describe("Id of a section or group with the same parent"),
});

export const groupPositionSchema = z.strictObject({
  before: groupPointerSchema.optional().describe("Place it just before this sibling"),
  after: groupPointerSchema.optional().describe("Place it just after this sibling"),
});

export const groupPlacementSchema = z.strictObject({
  position: groupPositionSchema.optional().describe("Where to place the group; omitted: at the end"),
});

/**
 * `moveSiteSectionGroup` (the public API's, which sortSiteStructure covers too): reorders among the items of its
 * parent; 404 no group, 400 bad position.
 */
export async function moveSectionGroup(
  ctx: RequestContext,
  organizationId: string | null | undefined,
  siteId: string | null | undefined,
  groupId: string,
  input: unknown,
) {
  const site = await requireItemSite(ctx, { organizationId, siteId }, { type: "SiteSectionGroup", id: groupId });
  const { position } = parseInput(groupPlacementSchema, input);
  return writeStructure(ctx, site.id, async (tx) => {
    const group = await findGroup(tx, site.id, groupId);
    const siblings = await structureSiblings(tx, site.id, group.parentGroupId);
    await writePositions(
      tx,
      placeAmong(siblings, group.id, { before: position?.before?.id, after: position?.after?.id }),
    );
    return tx.siteSectionGroup.findUniqueOrThrow({ where: { id: group.id } });
  });
}
