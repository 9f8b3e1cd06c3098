import { z } from "zod";
import { requireViewer } from "../../auth/access.ts";
import { authorizeInOrganization } from "../../auth/authorize.ts";
import { checkedRead, type Readable, rewrittenRow } from "../../auth/readable.ts";
import type { Prisma, Space } from "../../db/generated/client.ts";
import { InvalidInputError } from "../../lib/errors.ts";
import { type mergeRulesSchema, parseInput } from "../../lib/validation.ts";
import { newId } from "../../platform/ids.ts";
import type { RequestContext } from "../../request/context.ts";
import { mergeRulesWithin } from "../organization/organization.public.ts";
import { writeFirstRevision } from "./first-revision.ts";
import { getSpace, requireSpaceRole } from "./space.access.ts";
import { canCreateSpaces, canTransferSpace, creatorReadsSpace } from "./space.policy.ts";
import { endPosition, requireCollectionIn } from "./space.service.ts";

/** A copy with the same settings and grants, placed after the original; the copier becomes its admin. */
export async function duplicateSpace(ctx: RequestContext, spaceId: string): Promise<Readable<Space>> {
  const space = await getSpace(ctx, spaceId);
  await authorizeInOrganization(ctx, space.organizationId, canCreateSpaces);
  const userId = requireViewer(ctx).userId;
  const copy = await ctx.prisma.$transaction(async (tx) => {
    const grants = await tx.spacePermission.findMany({ where: { spaceId } });
    const now = ctx.clock.now();
    const revisionId = newId("Revision");
    const copy = await tx.space.create({
      data: {
        id: newId("Space"),
        organizationId: space.organizationId,
        parentId: space.parentId,
        title: `${space.title.slice(0, 43)} (copy)`,
        emoji: space.emoji,
        visibility: space.visibility,
        editMode: space.editMode,
        defaultLevel: space.defaultLevel,
        language: space.language,
        mergeRules: space.mergeRules as Prisma.InputJsonValue,
        revisionId,
        position: await endPosition(tx, space.organizationId, space.parentId),
        createdById: userId,
        createdAt: now,
        updatedAt: now,
      },
    });
    const copied = grants.filter((grant) => grant.userId !== userId);
    await tx.spacePermission.createMany({
      data: [
        ...copied.map((grant) => ({
          id: newId("SpacePermission"),
          spaceId: copy.id,
          userId: grant.userId,
          teamId: grant.teamId,
          role: grant.role,
          createdAt: now,
        })),
        { id: newId("SpacePermission"), spaceId: copy.id, userId, role: "admin" as const, createdAt: now },
      ],
    });
    await writeFirstRevision(tx, {
      id: revisionId,
      spaceId: copy.id,
      createdById: userId,
      createdAt: now,
      copyOf: space.revisionId,
    });
    return copy;
  });
  return checkedRead(copy, creatorReadsSpace(copy));
}

export const spacePointerSchema = z.strictObject({
  type: z.literal("space").describe('Always "space"'),
  space: z.string().min(1).describe("Id of a sibling space (same parent)"),
});
export const spacePositionSchema = z
  .strictObject({
    before: spacePointerSchema.optional().describe("Place it just before this space"),
    after: spacePointerSchema.optional().describe("Place it just after this space"),
  })
  .refine((position) => Boolean(position.before) !== Boolean(position.after), {
    message: "give exactly one of before and after",
  });
export const moveSpaceSchema = z
  .strictObject({
    parent: z
      .string()
      .min(1)
      .nullable()
      .optional()
      .describe("Id of a collection of the organization to move it into; null: the root; omitted: stays"),
    position: spacePositionSchema
      .optional()
      .describe("Next to a sibling (exactly one of before and after); omitted: at the end"),
  })
  .refine((body) => body.parent !== undefined || body.position !== undefined, {
    message: "give parent or position",
  });

/** Moves a space to another parent collection (or the root) and/or next to a sibling; siblings are renumbered. */
export async function moveSpace(ctx: RequestContext, spaceId: string, input: unknown): Promise<Readable<Space>> {
  const space = await requireSpaceRole(ctx, spaceId, "admin");
  const data = parseInput(moveSpaceSchema, input);
  const parentId = data.parent === undefined ? space.parentId : data.parent;
  const moved = await ctx.prisma.$transaction(async (tx) => {
    if (parentId) await requireCollectionIn(tx, space.organizationId, parentId);
    const siblings = (
      await tx.space.findMany({
        where: { organizationId: space.organizationId, parentId, deletedAt: null, id: { not: spaceId } },
        orderBy: [{ position: "asc" }, { createdAt: "asc" }, { id: "asc" }],
        select: { id: true },
      })
    ).map((sibling) => sibling.id);
    let index = siblings.length;
    const pointer = data.position?.before ?? data.position?.after;
    if (pointer) {
      const at = siblings.indexOf(pointer.space);
      if (at < 0) throw new InvalidInputError(`Space ${pointer.space} is not a sibling at the target position`);
      index = data.position?.before ? at : at + 1;
    }
    siblings.splice(index, 0, spaceId);
    for (const [position, id] of siblings.entries()) {
      if (id !== spaceId) await tx.space.update({ where: { id }, data: { position } });
    }
    return tx.space.update({
      where: { id: spaceId },
      data: {
        parentId,
        position: index,
        // Outside a collection, `in-collection` has no meaning: the space falls back to private.
        visibility: !parentId && space.visibility === "in-collection" ? "private" : space.visibility,
        updatedAt: ctx.clock.now(),
      },
    });
  });
  return rewrittenRow(space, moved);
}

export const transferSpaceSchema = z.strictObject({
  organization: z.string().min(1).describe("Id of the organization to move it to; the caller must be admin there"),
});

/**
 * Moves a space to another organization where the caller is admin too: it lands at the target's root, keeps the
 * grants of users who are members there, loses team grants (teams belong to the old organization) and leaves the
 * old organization's sites.
 */
export async function transferSpace(ctx: RequestContext, spaceId: string, input: unknown): Promise<Readable<Space>> {
  const space = await getSpace(ctx, spaceId);
  const { organization } = parseInput(transferSpaceSchema, input);
  await authorizeInOrganization(ctx, space.organizationId, canTransferSpace);
  await authorizeInOrganization(ctx, organization, canTransferSpace);
  if (organization === space.organizationId) return space;
  const moved = await ctx.prisma.$transaction(async (tx) => {
    await tx.spacePermission.deleteMany({
      where: {
        spaceId,
        OR: [{ teamId: { not: null } }, { user: { memberships: { none: { organizationId: organization } } } }],
      },
    });
    await tx.siteSpace.deleteMany({ where: { spaceId, site: { organizationId: space.organizationId } } });
    await tx.changeRequest.updateMany({ where: { spaceId }, data: { organizationId: organization } });
    const mergeRules = await mergeRulesWithin(tx, organization, space.mergeRules as z.infer<typeof mergeRulesSchema>);
    return tx.space.update({
      where: { id: spaceId },
      data: {
        organizationId: organization,
        mergeRules: mergeRules as Prisma.InputJsonValue,
        parentId: null,
        position: await endPosition(tx, organization, null),
        visibility: space.visibility === "in-collection" ? "private" : space.visibility,
        updatedAt: ctx.clock.now(),
      },
    });
  });
  return rewrittenRow(space, moved);
}
