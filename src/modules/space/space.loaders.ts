import { membershipJoinColumns, ssoAdmitsSql, viewerMembershipLoader } from "../../auth/access.ts";
import { type Readable, readableAsParent } from "../../auth/readable.ts";
import { highestRole } from "../../auth/roles.ts";
import type { Collection, GitSync, Member, Role, Space } from "../../db/generated/client.ts";
import { keyedSql, keyedText, selectedColumns } from "../../db/sql.ts";
import type { RequestContext } from "../../request/context.ts";
import { byKeys, defineLoader } from "../../request/loaders.ts";
import { type MemberKey, memberCacheKey } from "../member/member.public.ts";
import { gitSyncJoinColumns, keepGitSyncReadWith } from "./git-sync.loaders.ts";

/**
 * Spaces by id, deleted ones included, without access checks: services decide what the viewer may see. Nearly every
 * request reads a space, so this is hand-written SQL (db/sql.ts), and its one statement also brings each space's
 * Git sync state (the `gitSync` every REST space body carries) and the viewer's membership of its organization
 * (what every access check reads first).
 */
const spacesByIdSql = keyedSql(
  (ids) => `SELECT s.*, ${gitSyncJoinColumns("g")}, ${membershipJoinColumns("m")}
       FROM "Space" s
       JOIN "Organization" o ON o.id = s."organizationId"
       LEFT JOIN "GitSync" g ON g."spaceId" = s.id
       LEFT JOIN "Member" m ON m."organizationId" = s."organizationId" AND m."userId" = $2 AND ${ssoAdmitsSql("m", "o")}
      WHERE s.id ${ids}`,
);

export const spaceByIdLoader = defineLoader<string, Space | null>("spaceById", async (ctx, ids) => {
  const viewerId = ctx.viewer?.userId ?? null;
  const { text, keys } = keyedText(spacesByIdSql, ids);
  const { rows: spaces, related } = await ctx.sql.rowsAndRelated<
    Space,
    { gitSync: GitSync | null; membership: Member | null }
  >(text, [keys, viewerId]);
  const memberships = viewerId ? viewerMembershipLoader(ctx) : undefined;
  spaces.forEach((space, index) => {
    const { gitSync, membership } = related[index] as (typeof related)[number];
    keepGitSyncReadWith(ctx, space, gitSync);
    memberships?.prime(space.organizationId, membership);
  });
  return byKeys(ids, spaces, (row) => row.id);
});

/**
 * A space as nested lists show it: every column but its timestamps and merge rules. A site structure's 200 spaces
 * read in full cost their Dates and parsed JSON, kept for the whole request: 7% of the nested read's throughput
 * (measured beside `npm run bench`). Lists read summaries only when their items select `spaceSummaryFields`.
 */
export type SpaceSummary = Omit<Space, "createdAt" | "updatedAt" | "mergeRules">;

const spaceSummaryColumns = selectedColumns<SpaceSummary>("s", {
  id: true,
  organizationId: true,
  parentId: true,
  title: true,
  emoji: true,
  visibility: true,
  editMode: true,
  defaultLevel: true,
  language: true,
  revisionId: true,
  position: true,
  createdById: true,
  deletedAt: true,
  comments: true,
  changeRequests: true,
  changeRequestsOpen: true,
  changeRequestsDraft: true,
  changeRequestNumber: true,
});
const spaceSummariesByIdSql = keyedSql((ids) => `SELECT ${spaceSummaryColumns} FROM "Space" s WHERE s.id ${ids}`);

/**
 * The space of a row the caller has read (its parent field, `changeRequest.space`): whoever may read a space's change
 * request, comment or translation may read the space, so no second check. Deleted spaces are rows too.
 */
export async function parentSpace(ctx: RequestContext, spaceId: string): Promise<Readable<Space>> {
  const space = await spaceByIdLoader(ctx).load(spaceId);
  if (!space) throw new Error(`Space ${spaceId} is missing`);
  return readableAsParent(space);
}

/** Space summaries by id, deleted ones included, without access checks (see `spaceByIdLoader`). */
export const spaceSummaryByIdLoader = defineLoader<string, SpaceSummary | null>(
  "spaceSummaryById",
  async (ctx, ids) => {
    const { text, keys } = keyedText(spaceSummariesByIdSql, ids);
    return byKeys(ids, await ctx.sql.rows<SpaceSummary>(text, [keys]), (row) => row.id);
  },
);

/** Collections by id, without access checks. */
export const collectionByIdLoader = defineLoader<string, Collection | null>("collectionById", async (ctx, ids) => {
  const rows = await ctx.prisma.collection.findMany({ where: { id: { in: [...ids] } } });
  return byKeys(ids, rows, (row) => row.id);
});

/** Grants reaching a user directly or through one of their teams. */
export function grantsReaching(userId: string) {
  return { OR: [{ userId }, { team: { members: { some: { userId } } } }] };
}

/** The viewer's highest explicit grant (user or team) on each space; null: none. */
export const viewerSpaceGrantLoader = defineLoader<string, Role | null>("viewerSpaceGrant", async (ctx, spaceIds) => {
  const rows = await ctx.prisma.spacePermission.findMany({
    where: { spaceId: { in: [...spaceIds] }, ...grantsReaching(ctx.viewer?.userId ?? "") },
    select: { spaceId: true, role: true },
  });
  const roles = new Map<string, Role | null>();
  for (const row of rows) roles.set(row.spaceId, highestRole(roles.get(row.spaceId), row.role));
  return spaceIds.map((id) => roles.get(id) ?? null);
});

export interface MemberSpaceKey {
  userId: string;
  spaceId: string;
}

const memberSpaceCacheKey = (key: MemberSpaceKey) => `${key.userId}:${key.spaceId}`;

/** A user's highest explicit grant (user or team) on a space, for member space listings. */
export const memberSpaceGrantLoader = defineLoader<MemberSpaceKey, Role | null, string>(
  "memberSpaceGrant",
  async (ctx, keys) => {
    const rows = await ctx.prisma.spacePermission.findMany({
      where: {
        spaceId: { in: [...new Set(keys.map((key) => key.spaceId))] },
        OR: [
          { userId: { in: [...new Set(keys.map((key) => key.userId))] } },
          { team: { members: { some: { userId: { in: keys.map((key) => key.userId) } } } } },
        ],
      },
      select: { spaceId: true, role: true, userId: true, team: { select: { members: { select: { userId: true } } } } },
    });
    const roles = new Map<string, Role | null>();
    for (const row of rows) {
      const userIds = row.userId ? [row.userId] : (row.team?.members.map((member) => member.userId) ?? []);
      for (const userId of userIds) {
        const key = memberSpaceCacheKey({ userId, spaceId: row.spaceId });
        roles.set(key, highestRole(roles.get(key), row.role));
      }
    }
    return keys.map((key) => roles.get(memberSpaceCacheKey(key)) ?? null);
  },
  { cacheKeyFn: memberSpaceCacheKey },
);

/** Live spaces each team holds a grant on. */
export const teamSpaceCountLoader = defineLoader<string, number>("teamSpaceCount", async (ctx, teamIds) => {
  const rows = await ctx.prisma.spacePermission.groupBy({
    by: ["teamId"],
    where: { teamId: { in: [...teamIds] }, space: { deletedAt: null } },
    _count: { _all: true },
  });
  const counts = new Map(rows.map((row) => [row.teamId, row._count._all]));
  return teamIds.map((id) => counts.get(id) ?? 0);
});

/**
 * Every live space each member holds an explicit grant on, oldest first: one statement for the first pages of
 * all members of a nested read.
 */
export const memberSpacesLoader = defineLoader<MemberKey, Space[], string>(
  "memberSpaces",
  async (ctx, keys) => {
    const userIds = [...new Set(keys.map((key) => key.userId))];
    const reaching = {
      OR: [{ userId: { in: userIds } }, { team: { members: { some: { userId: { in: userIds } } } } }],
    };
    const rows = await ctx.prisma.space.findMany({
      where: {
        organizationId: { in: [...new Set(keys.map((key) => key.organizationId))] },
        deletedAt: null,
        permissions: { some: reaching },
      },
      include: {
        permissions: {
          where: reaching,
          select: { userId: true, team: { select: { members: { select: { userId: true } } } } },
        },
      },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    });
    const byMember = new Map<string, Space[]>();
    for (const { permissions, ...space } of rows) {
      const holders = new Set(
        permissions.flatMap((grant) =>
          grant.userId ? [grant.userId] : (grant.team?.members ?? []).map((m) => m.userId),
        ),
      );
      for (const userId of holders) {
        const key = memberCacheKey({ organizationId: space.organizationId, userId });
        byMember.set(key, [...(byMember.get(key) ?? []), space]);
      }
    }
    return keys.map((key) => byMember.get(memberCacheKey(key)) ?? []);
  },
  { cacheKeyFn: memberCacheKey },
);
