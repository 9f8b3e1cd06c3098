import type { GitSync } from "../../db/generated/client.ts";
import { joinedColumns } from "../../db/sql.ts";
import { byKeys, defineLoader } from "../../loaders.ts";

/** Git sync state by space id, without access checks (the space field resolving it checked them). */
export const gitSyncBySpaceLoader = defineLoader<string, GitSync | null>("gitSyncBySpace", async (ctx, spaceIds) => {
  const rows = await ctx.prisma.gitSync.findMany({ where: { spaceId: { in: [...spaceIds] } } });
  return byKeys(spaceIds, rows, (row) => row.spaceId);
});

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
export function gitSyncJoinColumns(alias: string): string {
  return joinedColumns<GitSync>(alias, "gitSync", gitSyncColumns);
}
