import type { GitSync } from "../../db/generated/client.ts";
import { byKeys, defineLoader } from "../../loaders.ts";

/** Git sync state by space id, without access checks (the space field resolving it checked them). */
export const gitSyncBySpaceLoader = defineLoader<string, GitSync | null>("gitSyncBySpace", async (ctx, spaceIds) => {
  const rows = await ctx.prisma.gitSync.findMany({ where: { spaceId: { in: [...spaceIds] } } });
  return byKeys(spaceIds, rows, (row) => row.spaceId);
});
