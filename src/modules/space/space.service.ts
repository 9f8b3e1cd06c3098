import { z } from "zod";
import { requireViewer } from "../../auth/access.ts";
import { authorizeInOrganization } from "../../auth/authorize.ts";
import { checkedRead, type Readable, readableByFilter, rewrittenRow } from "../../auth/readable.ts";
import type { PrismaExecutor } from "../../db/database.ts";
import type { Prisma, Role, Space } from "../../db/generated/client.ts";
import type { ModuleJobs } from "../../jobs/queue.ts";
import { InvalidInputError, NotFoundError } from "../../lib/errors.ts";
import { mergeRulesSchema, parseInput, roleSchema } from "../../lib/validation.ts";
import { type ListOrder, type OrderKeyInput, sortFor } from "../../paging/list-order.ts";
import { pageFromRows } from "../../paging/memory-pagination.ts";
import { isFirstPage, mapNodes, type Page, type PageArgs, paginate, type SortKey } from "../../paging/pagination.ts";
import { newId } from "../../platform/ids.ts";
import type { RequestContext } from "../../request/context.ts";
import { organizationMember } from "../member/member.public.ts";
import { requireMergeRuleMembers } from "../organization/organization.public.ts";
import { type FirstRevisionWriter, writeFirstRevision } from "./first-revision.ts";
import { effectiveRole, requireSpaceRole, visibleSpacesWhere } from "./space.access.ts";
import {
  canCreateSpaces,
  canListCollections,
  canRestoreSpace,
  creatorReadsSpace,
  spaceRetentionMs,
} from "./space.policy.ts";
import { grantsReaching, spaceReads } from "./space-reads.ts";

/** Deleted spaces can be restored for this long; the purge job removes them afterwards. */

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

/** Position after the last sibling (same organization and parent collection). */
export async function endPosition(
  tx: PrismaExecutor,
  organizationId: string,
  parentId: string | null,
): Promise<number> {
  const last = await tx.space.aggregate({
    where: { organizationId, parentId, deletedAt: null },
    _max: { position: true },
  });
  return (last._max.position ?? -1) + 1;
}

export async function requireCollectionIn(tx: PrismaExecutor, organizationId: string, collectionId: string) {
  const collection = await tx.collection.findFirst({ where: { id: collectionId, organizationId } });
  if (!collection) throw new InvalidInputError(`Unknown collection ${collectionId}`);
  return collection;
}

export const createSpaceSchema = z.strictObject({
  title: titleSchema.optional().describe('The space\'s title, trimmed; omitted: "Untitled"'),
  emoji: emojiSchema.optional().describe("An emoji shown with the title; omitted: none"),
  parent: z
    .string()
    .min(1)
    .optional()
    .describe("Id of a collection of the organization to create it in; omitted: the root"),
  language: languageSchema.optional().describe("The content's language code; omitted: none"),
  editMode: editModeSchema.optional().describe("Whether its content may be edited; omitted: live"),
  // Content templates and computed sources need the content service; an empty space is what is created.
  empty: z
    .literal(true)
    .optional()
    .describe("Create an empty space; only true is accepted, as an empty space is the only kind created"),
});

/**
 * A new private space; members get their organization role on it by default (`defaultLevel: admin`, capped at
 * each member's role) and the creator an explicit admin grant.
 */
export async function createSpace(
  ctx: RequestContext,
  organizationId: string,
  input: unknown,
): Promise<Readable<Space>> {
  await authorizeInOrganization(ctx, organizationId, canCreateSpaces);
  const data = parseInput(createSpaceSchema, input);
  const userId = requireViewer(ctx).userId;
  const created = await ctx.prisma.$transaction(async (tx) => {
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
  return checkedRead(created, creatorReadsSpace(created));
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
    /** Writes the first revision when it is not the empty one (a translation's space starts translated). */
    writeFirst?: FirstRevisionWriter;
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
  await (data.writeFirst ?? writeFirstRevision)(tx, {
    id: revisionId,
    spaceId: space.id,
    createdById: userId,
    createdAt: now,
  });
  return space;
}

export const updateSpaceSchema = z.strictObject({
  title: titleSchema.optional().describe("The space's title, trimmed"),
  emoji: emojiSchema.nullable().optional().describe("An emoji shown with the title; null removes it"),
  editMode: editModeSchema.optional().describe("Whether its content may be edited"),
  defaultLevel: roleSchema
    .nullable()
    .optional()
    .describe(
      "The role every organization member gets on the space, capped at their organization role; null: only " +
        "explicit grants give access",
    ),
  language: languageSchema.nullable().optional().describe("The content's language code; null removes it"),
  mergeRules: mergeRulesSchema
    .optional()
    .describe(
      "What a change request needs to merge: `{type: inherit}` (the organization's), `{type: none}` or " +
        "`{type: rules, rules: [{rule, users?}]}`; users named must be members of the organization",
    ),
});

export async function updateSpace(ctx: RequestContext, spaceId: string, input: unknown): Promise<Readable<Space>> {
  const space = await requireSpaceRole(ctx, spaceId, "admin");
  const data = parseInput(updateSpaceSchema, input);
  await requireMergeRuleMembers(ctx.prisma, space.organizationId, data.mergeRules);
  const updated = await ctx.prisma.space.update({
    where: { id: spaceId },
    data: {
      ...data,
      // `emoji: null` removes the emoji.
      emoji: data.emoji === null ? "" : data.emoji,
      mergeRules: data.mergeRules as Prisma.InputJsonValue | undefined,
      updatedAt: ctx.clock.now(),
    },
  });
  return rewrittenRow(space, updated);
}

export async function updateSpaceVisibility(ctx: RequestContext, spaceId: string, visibility: unknown) {
  const space = await requireSpaceRole(ctx, spaceId, "admin");
  const value = parseInput(visibilitySchema, visibility);
  if (value === "in-collection" && !space.parentId) {
    throw new InvalidInputError("in-collection visibility is only for spaces in a collection");
  }
  const updated = await ctx.prisma.space.update({
    where: { id: spaceId },
    data: { visibility: value, updatedAt: ctx.clock.now() },
  });
  return rewrittenRow(space, updated);
}

/** Soft delete: the space disappears everywhere, can be restored for 7 days, then the purge job removes it. */
export async function deleteSpace(ctx: RequestContext, spaceId: string): Promise<void> {
  // Deleting what is already gone answers 204, but only to a signed-in caller, like every other delete.
  requireViewer(ctx);
  const space = await spaceReads(ctx).space.load(spaceId);
  if (!space || space.deletedAt) return;
  await requireSpaceRole(ctx, spaceId, "admin");
  await ctx.prisma.space.update({ where: { id: spaceId }, data: { deletedAt: ctx.clock.now() } });
}

/** Restores a space deleted less than 7 days ago; past that it is gone (404), purged or not yet. */
export async function restoreSpace(ctx: RequestContext, spaceId: string): Promise<Readable<Space>> {
  const row = await spaceReads(ctx).space.load(spaceId);
  if (!row) throw new NotFoundError(`Space ${spaceId} not found`);
  const space = checkedRead(row, canRestoreSpace(await effectiveRole(ctx, row), row, ctx.clock.now()));
  if (!space.deletedAt) return space;
  const restored = await ctx.prisma.space.update({
    where: { id: spaceId },
    data: { deletedAt: null, updatedAt: ctx.clock.now() },
  });
  return rewrittenRow(space, restored);
}

export const inviteSchema = z
  .strictObject({
    role: roleSchema.nullable().describe("The role to grant; null removes the grants of these users and teams"),
    users: z
      .array(z.string().min(1))
      .min(1)
      .max(1000)
      .optional()
      .describe("Ids of users, members of the space's organization"),
    teams: z.array(z.string().min(1)).min(1).max(1000).optional().describe("Ids of teams of the space's organization"),
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
  space: Readable<Space>;
}

/**
 * The sorts of `Member.spaces(orderBy:)`: creation time only, the order the member's grants are loaded in (the
 * first page comes from that batch) and that the index `space(organizationId, deletedAt, createdAt, id)` serves for later pages.
 */
export const memberSpaceListOrder: ListOrder<Space> = { fields: { CREATED_AT: "createdAt" }, tiebreak: "id" };

/**
 * Live spaces a member holds an explicit grant on (directly or through a team), newest first unless `orderBy` says
 * otherwise.
 */
export async function listMemberSpaces(
  ctx: RequestContext,
  organizationId: string,
  userId: string,
  page: PageArgs,
  orderBy: readonly OrderKeyInput[] | null | undefined,
): Promise<Page<MemberSpace>> {
  const viewer = await authorizeInOrganization(ctx, organizationId, canListCollections);
  const member = await organizationMember(ctx, viewer, userId);
  if (!member) throw new NotFoundError(`Member ${userId} not found`);
  const sort = sortFor(memberSpaceListOrder, orderBy, [
    { field: "createdAt", direction: "desc" },
    { field: "id", direction: "desc" },
  ]);
  const direction = (sort[0] as SortKey<Space>).direction;
  // Only the member's spaces the caller may read: admins read them all, a member their own grants.
  const readable = await visibleSpacesWhere(ctx, organizationId);
  const seesAll = !readable.OR || requireViewer(ctx).userId === userId;
  let result: Page<Space>;
  if (seesAll && isFirstPage(page)) {
    const rows = await spaceReads(ctx).memberSpaces.load({ organizationId, userId });
    result = pageFromRows(page, sort, direction === "asc" ? rows : [...rows].reverse());
  } else {
    result = await paginate<Space>(page, {
      sort,
      where: { AND: [readable, { organizationId, deletedAt: null, permissions: { some: grantsReaching(userId) } }] },
      model: ctx.prisma.space,
    });
  }
  return mapNodes(result, (space) => ({ userId, space: readableByFilter(space) }));
}

export async function memberSpacePermission(ctx: RequestContext, row: MemberSpace): Promise<Role> {
  const role = await spaceReads(ctx).memberGrant.load({ userId: row.userId, spaceId: row.space.id });
  if (!role) throw new Error(`Member ${row.userId} has no grant on ${row.space.id}`);
  return role;
}

/** Removes spaces deleted more than 7 days ago (their grants and site spaces go with them). */
async function purgeDeletedSpaces(prisma: PrismaExecutor, now: Date): Promise<number> {
  const { count } = await prisma.space.deleteMany({
    where: { deletedAt: { lt: new Date(now.getTime() - spaceRetentionMs) } },
  });
  return count;
}

export const spaceJobs: ModuleJobs = {
  scheduled: {
    "purge-deleted-spaces": {
      cron: "0 * * * *",
      run: async (prisma, now) => void (await purgeDeletedSpaces(prisma, now)),
    },
  },
};
