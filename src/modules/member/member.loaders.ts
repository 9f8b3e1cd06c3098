import { enforce } from "../../auth/policy.ts";
import type { Readable } from "../../auth/readable.ts";
import type { Member } from "../../db/generated/client.ts";
import type { RequestContext } from "../../request/context.ts";
import { byKeys, defineLoader } from "../../request/loaders.ts";
import { canListMembers } from "./member.policy.ts";

export interface MemberKey {
  organizationId: string;
  userId: string;
}

export const memberCacheKey = (key: MemberKey) => `${key.organizationId}:${key.userId}`;

/** Memberships by (organization, user), without access checks: others reach them through `organizationMember`. */
export const memberByKeyLoader = defineLoader<MemberKey, Member | null, string>(
  "memberByKey",
  async (ctx, keys) => {
    const rows = await ctx.prisma.member.findMany({
      where: { OR: keys.map((key) => ({ organizationId: key.organizationId, userId: key.userId })) },
    });
    return byKeys(keys.map(memberCacheKey), rows, memberCacheKey);
  },
  { cacheKeyFn: memberCacheKey },
);

/** Number of teams of the organization each member belongs to. */
export const memberTeamCountLoader = defineLoader<MemberKey, number, string>(
  "memberTeamCount",
  async (ctx, keys) => {
    const rows = await ctx.prisma.teamMember.groupBy({
      by: ["organizationId", "userId"],
      where: { OR: keys.map((key) => ({ organizationId: key.organizationId, userId: key.userId })) },
      _count: { _all: true },
    });
    const counts = new Map(rows.map((row) => [memberCacheKey(row), row._count._all]));
    return keys.map((key) => counts.get(memberCacheKey(key)) ?? 0);
  },
  { cacheKeyFn: memberCacheKey },
);

/** Live spaces of the organization each member holds an explicit grant on (directly or through a team). */
export const memberSpaceCountLoader = defineLoader<MemberKey, number, string>(
  "memberSpaceCount",
  async (ctx, keys) => {
    const userIds = [...new Set(keys.map((key) => key.userId))];
    const rows = await ctx.prisma.spacePermission.findMany({
      where: {
        space: { organizationId: { in: [...new Set(keys.map((key) => key.organizationId))] }, deletedAt: null },
        OR: [{ userId: { in: userIds } }, { team: { members: { some: { userId: { in: userIds } } } } }],
      },
      select: {
        spaceId: true,
        userId: true,
        space: { select: { organizationId: true } },
        team: { select: { members: { select: { userId: true } } } },
      },
    });
    const spaces = new Map<string, Set<string>>();
    for (const row of rows) {
      const holders = row.userId ? [row.userId] : (row.team?.members.map((member) => member.userId) ?? []);
      for (const userId of holders) {
        const key = memberCacheKey({ organizationId: row.space.organizationId, userId });
        spaces.set(key, (spaces.get(key) ?? new Set()).add(row.spaceId));
      }
    }
    return keys.map((key) => spaces.get(memberCacheKey(key))?.size ?? 0);
  },
  { cacheKeyFn: memberCacheKey },
);

/**
 * A member of the organization of `viewer`, the viewer's membership as a policy check returned it: the member
 * policy's list rule is applied to it again here, pure (no statement), so a membership that passed a lower rule
 * (a guest's) reads no one.
 */
export function organizationMember(
  ctx: RequestContext,
  viewer: Readable<Member>,
  userId: string,
): Promise<Member | null> {
  enforce(canListMembers(viewer, { id: viewer.organizationId }));
  return memberByKeyLoader(ctx).load({ organizationId: viewer.organizationId, userId });
}
