import type { Member } from "../../db/generated/client.ts";
import { byKeys, defineLoader } from "../../loaders.ts";

export interface MemberKey {
  organizationId: string;
  userId: string;
}

const memberCacheKey = (key: MemberKey) => `${key.organizationId}:${key.userId}`;

/** Memberships by (organization, user), without access checks. */
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
