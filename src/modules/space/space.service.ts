import { z } from "zod";
import {
  requireMembership,
  requireOrganizationRole,
  requireViewer,
  viewerMembershipLoader,
} from "../../auth/access.ts";
import { hasRole, highestRole, roleRank } from "../../auth/roles.ts";
import type { RequestContext } from "../../context.ts";
import type { PrismaExecutor } from "../../db/database.ts";
import type { Prisma, Role, Space } from "../../db/generated/client.ts";
import { newId } from "../../ids.ts";
import { ForbiddenError, InvalidInputError, NotFoundError } from "../../lib/errors.ts";
import { isFirstPage, type Page, type PageArgs, pageFromRows, paginate, type SortKey } from "../../pagination.ts";
import { mergeRulesSchema, parseInput, roleSchema } from "../../validation.ts";
import type { ContentState } from "../content/content-state.ts";
import { writeFirstRevision } from "../content/revision.service.ts";
import { memberByKeyLoader } from "../member/member.loaders.ts";
import { mergeRulesWithin, requireMergeRuleMembers } from "./merge-rules.service.ts";
import {
  collectionByIdLoader,
  grantsReaching,
  memberSpaceGrantLoader,
  memberSpacesLoader,
  spaceByIdLoader,
  viewerSpaceGrantLoader,
} from "./space.loaders.ts";

/** Deleted spaces can be restored for this long; the purge job removes them afterwards. */
export const spaceRetentionMs = 7 * 24 * 60 * 60 * 1000;

export const spaceVisibilities = [
  "public",
  "unlisted",
  "share-link",
  "visitor-auth",
  "in-collection",
  "private",
] as const;
export const spaceLanguages = [
  "en",
  "fr",
  "de",
  "es",
  "it",
  "pt",
  "pt-br",
  "ru",
  "ja",
  "zh",
  "yue",
  "ko",
  "ar",
  "hi",
  "nl",
  "pl",
  "tr",
  "sv",
  "no",
  "da",
  "fi",
  "el",
  "cs",
  "hu",
  "ro",
  "th",
  "vi",
  "id",
  "ms",
  "he",
  "uk",
  "sk",
  "bg",
  "hr",
  "lt",
  "lv",
  "et",
  "sl",
] as const;

const titleSchema = z.string().trim().min(1).max(50);
const emojiSchema = z.string().max(50);
const editModeSchema = z.enum(["live", "locked"]);
const languageSchema = z.enum(spaceLanguages);
const visibilitySchema = z.enum(spaceVisibilities);

const spaceOrder: SortKey<Space>[] = [
  { field: "createdAt", direction: "asc" },
  { field: "id", direction: "asc" },
];

/** A default level gives a member at most their organization role. */
function capRole(level: Role | null | undefined, organizationRole: Role | null | undefined): Role | null {
  if (!level || !organizationRole) return null;
  return roleRank(level) <= roleRank(organizationRole) ? level : organizationRole;
}

/** The viewer's effective role on a space, deleted or not (access.md); restore needs it on deleted spaces. */
async function effectiveRole(ctx: RequestContext, space: Space): Promise<Role | null> {
  // Visitors of published content (no API token) reach spaces through a site: they hold no role on them.
  if (!ctx.viewer) return null;
  const membership = await viewerMembershipLoader(ctx).load(space.organizationId);
  // Public and unlisted content is readable by anyone signed in, members included.
  const openRead: Role | null = space.visibility === "public" || space.visibility === "unlisted" ? "read" : null;
  if (!membership || membership.disabled) return openRead;
  // Nothing ranks above an organization admin: their grants need not be read.
  if (membership.role === "admin") return "admin";
  const [grant, collection] = await Promise.all([
    viewerSpaceGrantLoader(ctx).load(space.id),
    space.visibility === "in-collection" && space.parentId
      ? collectionByIdLoader(ctx).load(space.parentId)
      : Promise.resolve(null),
  ]);
  // `in-collection` spaces also open to whoever the parent collection's default level lets in.
  const defaultLevel = highestRole(space.defaultLevel, collection?.defaultLevel);
  return highestRole(grant, capRole(defaultLevel, membership.role), openRead);
}

/** The viewer's effective role on a live space; null when the viewer may not see it (or it is deleted). */
export async function spaceRole(ctx: RequestContext, space: Space): Promise<Role | null> {
  return space.deletedAt ? null : effectiveRole(ctx, space);
}

/**
 * Spaces for `node`/`nodes` and nested reads: null for deleted spaces and for spaces the viewer may not see.
 */
export async function loadVisibleSpaces(ctx: RequestContext, ids: readonly string[]): Promise<(Space | null)[]> {
  requireViewer(ctx);
  const spaces = await spaceByIdLoader(ctx).loadMany(ids);
  const live = spaces.map((space) => (space && !(space instanceof Error) && !space.deletedAt ? space : null));
  const roles = await Promise.all(live.map((space) => (space ? spaceRole(ctx, space) : null)));
  return live.map((space, index) => (roles[index] ? space : null));
}

export async function getSpace(ctx: RequestContext, spaceId: string): Promise<Space> {
  const [space] = await loadVisibleSpaces(ctx, [spaceId]);
  if (!space) throw new NotFoundError(`Space ${spaceId} not found`);
  return space;
}

/** The space when the viewer has at least `least` on it: 404 when they may not see it, 403 when too low. */
export async function requireSpaceRole(ctx: RequestContext, spaceId: string, least: Role): Promise<Space> {
  const space = await getSpace(ctx, spaceId);
  if (!hasRole(await spaceRole(ctx, space), least)) {
    throw new ForbiddenError(`This operation needs the ${least} role on the space`);
  }
  return space;
}

/** For content edits: `edit` on the space and the space not locked. */
export async function requireSpaceEditable(ctx: RequestContext, spaceId: string): Promise<Space> {
  const space = await requireSpaceRole(ctx, spaceId, "edit");
  if (space.editMode === "locked") throw new ForbiddenError("The space is locked: its content cannot be edited");
  return space;
}

export async function spacePermissions(ctx: RequestContext, space: Space) {
  const role = await spaceRole(ctx, space);
  return {
    view: hasRole(role, "read"),
    access: hasRole(role, "read"),
    comment: hasRole(role, "comment"),
    edit: hasRole(role, "edit") && space.editMode !== "locked",
    review: hasRole(role, "review"),
    merge: hasRole(role, "review"),
    triggerGitSync: hasRole(role, "create"),
    viewInviteLinks: hasRole(role, "create"),
    admin: hasRole(role, "admin"),
    installIntegration: hasRole(role, "admin"),
  };
}

/** Live spaces of an organization the viewer can see (the same rule as `effectiveRole`, as a Prisma filter). */
export async function visibleSpacesWhere(ctx: RequestContext, organizationId: string): Promise<Prisma.SpaceWhereInput> {
  // Guests see the spaces they were invited to; only non-members get a 404.
  const membership = await requireMembership(ctx, organizationId);
  const where: Prisma.SpaceWhereInput = { organizationId, deletedAt: null };
  if (membership.role !== "admin") {
    const userId = requireViewer(ctx).userId;
    const visible: Prisma.SpaceWhereInput[] = [
      { permissions: { some: grantsReaching(userId) } },
      { visibility: { in: ["public", "unlisted"] } },
    ];
    if (membership.role) {
      visible.push({ defaultLevel: { not: null } });
      visible.push({ visibility: "in-collection", parent: { defaultLevel: { not: null } } });
    }
    where.OR = visible;
  }
  return where;
}

export async function listSpaces(ctx: RequestContext, organizationId: string, page: PageArgs) {
  const where = await visibleSpacesWhere(ctx, organizationId);
  return paginate<Space>(page, { sort: spaceOrder, where, model: ctx.prisma.space });
}

/** Position after the last sibling (same organization and parent collection). */
async function endPosition(tx: PrismaExecutor, organizationId: string, parentId: string | null): Promise<number> {
  const last = await tx.space.aggregate({
    where: { organizationId, parentId, deletedAt: null },
    _max: { position: true },
  });
  return (last._max.position ?? -1) + 1;
}

async function requireCollectionIn(tx: PrismaExecutor, organizationId: string, collectionId: string) {
  const collection = await tx.collection.findFirst({ where: { id: collectionId, organizationId } });
  if (!collection) throw new InvalidInputError(`Unknown collection ${collectionId}`);
  return collection;
}

const createSpaceSchema = z.strictObject({
  title: titleSchema.optional(),
  emoji: emojiSchema.optional(),
  parent: z.string().min(1).optional(),
  language: languageSchema.optional(),
  editMode: editModeSchema.optional(),
  // Content templates and computed sources need the content service; an empty space is what is created.
  empty: z.literal(true).optional(),
});

/**
 * A new private space; members get their organization role on it by default (`defaultLevel: admin`, capped at
 * each member's role) and the creator an explicit admin grant.
 */
export async function createSpace(ctx: RequestContext, organizationId: string, input: unknown): Promise<Space> {
  await requireOrganizationRole(ctx, organizationId, "create");
  const data = parseInput(createSpaceSchema, input);
  const userId = requireViewer(ctx).userId;
  return ctx.prisma.$transaction(async (tx) => {
    if (data.parent) await requireCollectionIn(tx, organizationId, data.parent);
    return insertSpace(tx, {
      organizationId,
      parentId: data.parent ?? null,
      title: data.title ?? "Untitled",
      emoji: data.emoji ?? "",
      language: data.language ?? null,
      editMode: data.editMode ?? "live",
      createdById: userId,
      now: ctx.clock.now(),
    });
  });
}

/**
 * Writes a new space at the end of its siblings with its first revision (empty, or `content`): members get their
 * organization role on it by default and the creator an explicit admin grant.
 */
export async function insertSpace(
  tx: PrismaExecutor,
  data: {
    organizationId: string;
    parentId: string | null;
    title: string;
    emoji: string;
    language: string | null;
    editMode: string;
    createdById: string;
    now: Date;
    content?: ContentState;
  },
): Promise<Space> {
  const { createdById: userId, now } = data;
  const revisionId = newId("Revision");
  const space = await tx.space.create({
    data: {
      id: newId("Space"),
      organizationId: data.organizationId,
      parentId: data.parentId,
      title: data.title,
      emoji: data.emoji,
      language: data.language,
      editMode: data.editMode,
      defaultLevel: "admin",
      revisionId,
      position: await endPosition(tx, data.organizationId, data.parentId),
      createdById: userId,
      createdAt: now,
      updatedAt: now,
      permissions: { create: { id: newId("SpacePermission"), userId, role: "admin", createdAt: now } },
    },
  });
  await writeFirstRevision(tx, {
    id: revisionId,
    spaceId: space.id,
    createdById: userId,
    createdAt: now,
    content: data.content,
  });
  return space;
}

const updateSpaceSchema = z.strictObject({
  title: titleSchema.optional(),
  emoji: emojiSchema.nullable().optional(),
  editMode: editModeSchema.optional(),
  defaultLevel: roleSchema.nullable().optional(),
  language: languageSchema.nullable().optional(),
  mergeRules: mergeRulesSchema.optional(),
});

export async function updateSpace(ctx: RequestContext, spaceId: string, input: unknown): Promise<Space> {
  const space = await requireSpaceRole(ctx, spaceId, "admin");
  const data = parseInput(updateSpaceSchema, input);
  await requireMergeRuleMembers(ctx.prisma, space.organizationId, data.mergeRules);
  return ctx.prisma.space.update({
    where: { id: spaceId },
    data: {
      ...data,
      // `emoji: null` removes the emoji.
      emoji: data.emoji === null ? "" : data.emoji,
      mergeRules: data.mergeRules as Prisma.InputJsonValue | undefined,
      updatedAt: ctx.clock.now(),
    },
  });
}

export async function updateSpaceVisibility(ctx: RequestContext, spaceId: string, visibility: unknown) {
  const space = await requireSpaceRole(ctx, spaceId, "admin");
  const value = parseInput(visibilitySchema, visibility);
  if (value === "in-collection" && !space.parentId) {
    throw new InvalidInputError("in-collection visibility is only for spaces in a collection");
  }
  return ctx.prisma.space.update({ where: { id: spaceId }, data: { visibility: value, updatedAt: ctx.clock.now() } });
}

/** Soft delete: the space disappears everywhere, can be restored for 7 days, then the purge job removes it. */
export async function deleteSpace(ctx: RequestContext, spaceId: string): Promise<void> {
  // Deleting what is already gone answers 204, but only to a signed-in caller, like every other delete.
  requireViewer(ctx);
  const space = await spaceByIdLoader(ctx).load(spaceId);
  if (!space || space.deletedAt) return;
  await requireSpaceRole(ctx, spaceId, "admin");
  await ctx.prisma.space.update({ where: { id: spaceId }, data: { deletedAt: ctx.clock.now() } });
}

/** Restores a space deleted less than 7 days ago; past that it is gone (404), purged or not yet. */
export async function restoreSpace(ctx: RequestContext, spaceId: string): Promise<Space> {
  const space = await spaceByIdLoader(ctx).load(spaceId);
  const role = space ? await effectiveRole(ctx, space) : null;
  if (!space || !role) throw new NotFoundError(`Space ${spaceId} not found`);
  if (space.deletedAt && ctx.clock.now().getTime() - space.deletedAt.getTime() > spaceRetentionMs) {
    throw new NotFoundError(`Space ${spaceId} not found`);
  }
  if (!hasRole(role, "admin")) throw new ForbiddenError("This operation needs the admin role on the space");
  if (!space.deletedAt) return space;
  return ctx.prisma.space.update({ where: { id: spaceId }, data: { deletedAt: null, updatedAt: ctx.clock.now() } });
}

/** A copy with the same settings and grants, placed after the original; the copier becomes its admin. */
export async function duplicateSpace(ctx: RequestContext, spaceId: string): Promise<Space> {
  const space = await getSpace(ctx, spaceId);
  await requireOrganizationRole(ctx, space.organizationId, "create");
  const userId = requireViewer(ctx).userId;
  return ctx.prisma.$transaction(async (tx) => {
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
}

const pointerSchema = z.strictObject({ type: z.literal("space"), space: z.string().min(1) });
const moveSpaceSchema = z
  .strictObject({
    parent: z.string().min(1).nullable().optional(),
    position: z
      .strictObject({ before: pointerSchema.optional(), after: pointerSchema.optional() })
      .refine((position) => Boolean(position.before) !== Boolean(position.after), {
        message: "give exactly one of before and after",
      })
      .optional(),
  })
  .refine((body) => body.parent !== undefined || body.position !== undefined, {
    message: "give parent or position",
  });

/** Moves a space to another parent collection (or the root) and/or next to a sibling; siblings are renumbered. */
export async function moveSpace(ctx: RequestContext, spaceId: string, input: unknown): Promise<Space> {
  const space = await requireSpaceRole(ctx, spaceId, "admin");
  const data = parseInput(moveSpaceSchema, input);
  const parentId = data.parent === undefined ? space.parentId : data.parent;
  return ctx.prisma.$transaction(async (tx) => {
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
}

const transferSpaceSchema = z.strictObject({ organization: z.string().min(1) });

/**
 * Moves a space to another organization where the caller is admin too: it lands at the target's root, keeps the
 * grants of users who are members there, loses team grants (teams belong to the old organization) and leaves the
 * old organization's sites.
 */
export async function transferSpace(ctx: RequestContext, spaceId: string, input: unknown): Promise<Space> {
  const space = await getSpace(ctx, spaceId);
  const { organization } = parseInput(transferSpaceSchema, input);
  await requireOrganizationRole(ctx, space.organizationId, "admin");
  await requireOrganizationRole(ctx, organization, "admin");
  if (organization === space.organizationId) return space;
  return ctx.prisma.$transaction(async (tx) => {
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
}

const inviteSchema = z
  .strictObject({
    // null (guest) removes the grants.
    role: roleSchema.nullable(),
    users: z.array(z.string().min(1)).min(1).max(1000).optional(),
    teams: z.array(z.string().min(1)).min(1).max(1000).optional(),
  })
  .refine((body) => body.users || body.teams, { message: "give users or teams" });

/** Grants (or, with role null, revokes) a role on the space to members and teams of its organization. */
export async function inviteToSpace(ctx: RequestContext, spaceId: string, input: unknown): Promise<void> {
  const space = await requireSpaceRole(ctx, spaceId, "admin");
  const { role, users = [], teams = [] } = parseInput(inviteSchema, input);
  await ctx.prisma.$transaction(async (tx) => {
    const [members, knownTeams] = await Promise.all([
      tx.member.findMany({ where: { organizationId: space.organizationId, userId: { in: users } } }),
      tx.team.findMany({ where: { organizationId: space.organizationId, id: { in: teams } } }),
    ]);
    const unknown = [
      ...users.filter((id) => !members.some((member) => member.userId === id)),
      ...teams.filter((id) => !knownTeams.some((team) => team.id === id)),
    ];
    if (unknown.length > 0)
      throw new InvalidInputError(`Not members or teams of this organization: ${unknown.join(", ")}`);
    if (role === null) {
      await tx.spacePermission.deleteMany({
        where: { spaceId, OR: [{ userId: { in: users } }, { teamId: { in: teams } }] },
      });
      return;
    }
    const now = ctx.clock.now();
    for (const userId of new Set(users)) {
      await tx.spacePermission.upsert({
        where: { spaceId_userId: { spaceId, userId } },
        create: { id: newId("SpacePermission"), spaceId, userId, role, createdAt: now },
        update: { role },
      });
    }
    for (const teamId of new Set(teams)) {
      await tx.spacePermission.upsert({
        where: { spaceId_teamId: { spaceId, teamId } },
        create: { id: newId("SpacePermission"), spaceId, teamId, role, createdAt: now },
        update: { role },
      });
    }
  });
}

export interface MemberSpace {
  userId: string;
  space: Space;
}

/** Live spaces a member holds an explicit grant on (directly or through a team), by creation date. */
export async function listMemberSpaces(
  ctx: RequestContext,
  organizationId: string,
  userId: string,
  page: PageArgs,
  order: "asc" | "desc" | null | undefined,
): Promise<Page<MemberSpace>> {
  await requireOrganizationRole(ctx, organizationId, "read");
  const member = await memberByKeyLoader(ctx).load({ organizationId, userId });
  if (!member) throw new NotFoundError(`Member ${userId} not found`);
  const direction = order ?? "desc";
  const sort: SortKey<Space>[] = [
    { field: "createdAt", direction },
    { field: "id", direction },
  ];
  // Only the member's spaces the caller may read: admins read them all, a member their own grants.
  const readable = await visibleSpacesWhere(ctx, organizationId);
  const seesAll = !readable.OR || requireViewer(ctx).userId === userId;
  let result: Page<Space>;
  if (seesAll && isFirstPage(page)) {
    const rows = await memberSpacesLoader(ctx).load({ organizationId, userId });
    result = pageFromRows(page, sort, direction === "asc" ? rows : [...rows].reverse());
  } else {
    result = await paginate<Space>(page, {
      sort,
      where: { AND: [readable, { organizationId, deletedAt: null, permissions: { some: grantsReaching(userId) } }] },
      model: ctx.prisma.space,
    });
  }
  return { ...result, edges: result.edges.map((edge) => ({ ...edge, node: { userId, space: edge.node } })) };
}

export async function memberSpacePermission(ctx: RequestContext, row: MemberSpace): Promise<Role> {
  const role = await memberSpaceGrantLoader(ctx).load({ userId: row.userId, spaceId: row.space.id });
  if (!role) throw new Error(`Member ${row.userId} has no grant on ${row.space.id}`);
  return role;
}

/** Removes spaces deleted more than 7 days ago (their grants and site spaces go with them). */
export async function purgeDeletedSpaces(prisma: PrismaExecutor, now: Date): Promise<number> {
  const { count } = await prisma.space.deleteMany({
    where: { deletedAt: { lt: new Date(now.getTime() - spaceRetentionMs) } },
  });
  return count;
}
