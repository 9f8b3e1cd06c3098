import DataLoader from "dataloader";
import { membershipJoinColumns, ssoAdmitsSql, viewerMembershipLoader } from "../../auth/access.ts";
import { type Readable, readableAsParent } from "../../auth/readable.ts";
import { highestRole } from "../../auth/roles.ts";
import type { Collection, GitSync, Member, Role, Space } from "../../db/generated/client.ts";
import { joinedColumns, keyedSql, keyedText, selectedColumns } from "../../db/sql.ts";
import type { RequestContext } from "../../request/context.ts";
import { byKeys } from "../../request/loaders.ts";
import { definePerRequest } from "../../request/request-state.ts";
import { type MemberKey, memberCacheKey } from "../member/member.public.ts";

const gitSyncColumns: Record<keyof GitSync, true> = {
  spaceId: true,
  url: true,
  ref: true,
  projectDirectory: true,
  provider: true,
  treeUrl: true,
  commitUrl: true,
  commitOid: true,
  appliedTimestamp: true,
  appliedJobId: true,
  operationDirection: true,
  operationState: true,
  operationError: true,
  operationSkipped: true,
  operationRevisionId: true,
  operationStartedAt: true,
  operationCompletedAt: true,
  updatedAt: true,
};

/** The select list of a `LEFT JOIN "GitSync" <alias>` that reads as a nested `gitSync` (see db/sql.ts). */
function gitSyncJoinColumns(alias: string): string {
  return joinedColumns<GitSync>(alias, "gitSync", gitSyncColumns);
}

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

/** Grants reaching a user directly or through one of their teams. */
export function grantsReaching(userId: string) {
  return { OR: [{ userId }, { team: { members: { some: { userId } } } }] };
}

interface MemberSpaceKey {
  userId: string;
  spaceId: string;
}

const memberSpaceCacheKey = (key: MemberSpaceKey) => `${key.userId}:${key.spaceId}`;

/** Each user's highest explicit grant (user or team) on each space asked. */
async function memberGrants(ctx: RequestContext, keys: readonly MemberSpaceKey[]): Promise<(Role | null)[]> {
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
}

/** Every live space each member holds an explicit grant on, oldest first. */
async function spacesOfMembers(ctx: RequestContext, keys: readonly MemberKey[]): Promise<Space[][]> {
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
}

/**
 * The read boundary of spaces (docs/architecture.md "Read boundaries"): per request, the loaders of spaces, their
 * summaries, collections, grants, Git sync states and member listings, their statements above, and what a read
 * settled for its rows (each space's Git sync as its row's statement joined it, each visible space's role), so their
 * fields answer without a promise. It checks nothing: space.access.ts decides what the viewer may see.
 */
class SpaceReads {
  /** Spaces by id, deleted ones included, with their Git sync state and the viewer's membership (`spacesByIdSql`). */
  readonly space: DataLoader<string, Space | null>;
  /** Space summaries by id, deleted ones included. */
  readonly summary: DataLoader<string, SpaceSummary | null>;
  readonly collection: DataLoader<string, Collection | null>;
  /** The viewer's highest explicit grant (user or team) on each space; null: none. */
  readonly viewerGrant: DataLoader<string, Role | null>;
  /** A user's highest explicit grant (user or team) on a space, for member space listings. */
  readonly memberGrant: DataLoader<MemberSpaceKey, Role | null, string>;
  /** Live spaces each team holds a grant on. */
  readonly teamSpaceCount: DataLoader<string, number>;
  /**
   * Every live space each member holds an explicit grant on, oldest first: one statement for the first pages of
   * all members of a nested read.
   */
  readonly memberSpaces: DataLoader<MemberKey, Space[], string>;
  /** The viewer's role on each space a visible read settled (space.access.ts), for the space's permission fields. */
  readonly settledRoles = new Map<SpaceSummary, Role | null>();
  private readonly gitSyncBySpace: DataLoader<string, GitSync | null>;
  /** Each space row's Git sync as the space read joined it: the row's `gitSync` answers without a promise. */
  private readonly gitSyncsReadWithSpaces = new Map<Space, GitSync | null>();

  constructor(ctx: RequestContext) {
    this.space = new DataLoader(async (ids) => {
      const viewerId = ctx.viewer?.userId ?? null;
      const { text, keys } = keyedText(spacesByIdSql, ids);
      const { rows: spaces, related } = await ctx.sql.rowsAndRelated<
        Space,
        { gitSync: GitSync | null; membership: Member | null }
      >(text, [keys, viewerId]);
      const memberships = viewerId ? viewerMembershipLoader(ctx) : undefined;
      spaces.forEach((space, index) => {
        const { gitSync, membership } = related[index] as (typeof related)[number];
        this.gitSyncBySpace.prime(space.id, gitSync);
        this.gitSyncsReadWithSpaces.set(space, gitSync);
        memberships?.prime(space.organizationId, membership);
      });
      return byKeys(ids, spaces, (row) => row.id);
    });
    this.summary = new DataLoader(async (ids) => {
      const { text, keys } = keyedText(spaceSummariesByIdSql, ids);
      return byKeys(ids, await ctx.sql.rows<SpaceSummary>(text, [keys]), (row) => row.id);
    });
    this.collection = new DataLoader(async (ids) => {
      const rows = await ctx.prisma.collection.findMany({ where: { id: { in: [...ids] } } });
      return byKeys(ids, rows, (row) => row.id);
    });
    this.viewerGrant = new DataLoader(async (spaceIds) => {
      const rows = await ctx.prisma.spacePermission.findMany({
        where: { spaceId: { in: [...spaceIds] }, ...grantsReaching(ctx.viewer?.userId ?? "") },
        select: { spaceId: true, role: true },
      });
      const roles = new Map<string, Role | null>();
      for (const row of rows) roles.set(row.spaceId, highestRole(roles.get(row.spaceId), row.role));
      return spaceIds.map((id) => roles.get(id) ?? null);
    });
    this.memberGrant = new DataLoader((keys) => memberGrants(ctx, keys), { cacheKeyFn: memberSpaceCacheKey });
    this.teamSpaceCount = new DataLoader(async (teamIds) => {
      const rows = await ctx.prisma.spacePermission.groupBy({
        by: ["teamId"],
        where: { teamId: { in: [...teamIds] }, space: { deletedAt: null } },
        _count: { _all: true },
      });
      const counts = new Map(rows.map((row) => [row.teamId, row._count._all]));
      return teamIds.map((id) => counts.get(id) ?? 0);
    });
    this.memberSpaces = new DataLoader((keys) => spacesOfMembers(ctx, keys), { cacheKeyFn: memberCacheKey });
    this.gitSyncBySpace = new DataLoader(async (spaceIds) => {
      const rows = await ctx.prisma.gitSync.findMany({ where: { spaceId: { in: [...spaceIds] } } });
      return byKeys(spaceIds, rows, (row) => row.spaceId);
    });
  }

  /**
   * The Git sync state of a space the viewer may read (null: never synchronized): at once when it was read with the
   * space row, else through its loader, batched with the request's other spaces.
   */
  gitSyncOf(space: Readable<Space>): Promise<GitSync | null> | GitSync | null {
    const read = this.gitSyncsReadWithSpaces.get(space);
    return read !== undefined ? read : this.gitSyncBySpace.load(space.id);
  }
}

/** The request's space reads, created on first use. */
export const spaceReads = definePerRequest("space reads", (ctx) => new SpaceReads(ctx));

/**
 * The space of a row the caller has read (its parent field, `changeRequest.space`): whoever may read a space's change
 * request, comment or translation may read the space, so no second check. Deleted spaces are rows too.
 */
export async function parentSpace(ctx: RequestContext, spaceId: string): Promise<Readable<Space>> {
  const space = await spaceReads(ctx).space.load(spaceId);
  if (!space) throw new Error(`Space ${spaceId} is missing`);
  return readableAsParent(space);
}

/** The Git sync state of a space the viewer may read (`gitSyncOf`), for other modules. */
export function spaceGitSync(ctx: RequestContext, space: Readable<Space>): Promise<GitSync | null> | GitSync | null {
  return spaceReads(ctx).gitSyncOf(space);
}

/**
 * Spaces by id without a check, for other modules' rows that name their space (a change request's, a comment's):
 * they decide with `spaceRole` or read it as a parent. Still unchecked: the last step of issue 50's checked reads.
 */
export function spaceByIdLoader(ctx: RequestContext): DataLoader<string, Space | null> {
  return spaceReads(ctx).space;
}

/** Live spaces each team holds a grant on: a count, no space is shown. */
export function teamSpaceCountLoader(ctx: RequestContext): DataLoader<string, number> {
  return spaceReads(ctx).teamSpaceCount;
}
