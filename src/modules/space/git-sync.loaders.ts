import type { Readable } from "../../auth/readable.ts";
import type { GitSync, Space } from "../../db/generated/client.ts";
import { joinedColumns } from "../../db/sql.ts";
import type { RequestContext } from "../../request/context.ts";
import { byKeys, defineLoader, defineSettled } from "../../request/loaders.ts";

/** Git sync state by space id, without access checks: others reach it through `spaceGitSync`. */
const gitSyncBySpaceLoader = defineLoader<string, GitSync | null>("gitSyncBySpace", async (ctx, spaceIds) => {
  const rows = await ctx.prisma.gitSync.findMany({ where: { spaceId: { in: [...spaceIds] } } });
  return byKeys(spaceIds, rows, (row) => row.spaceId);
});

/** Each space row's Git sync as the space read joined it: the row's `gitSync` answers without a promise. */
const gitSyncsReadWithSpaces = defineSettled<Space, GitSync | null>("git syncs of spaces");

/** Keeps the Git sync read with a space row (space.loaders.ts), and primes the loader with it. */
export function keepGitSyncReadWith(ctx: RequestContext, space: Space, gitSync: GitSync | null): void {
  gitSyncBySpaceLoader(ctx).prime(space.id, gitSync);
  gitSyncsReadWithSpaces.set(ctx, space, gitSync);
}

/**
 * The Git sync state of a space the viewer may read (null: never synchronized): at once when it was read with the
 * space row, else through the loader, batched with the request's other spaces.
 */
export function spaceGitSync(ctx: RequestContext, space: Readable<Space>): Promise<GitSync | null> | GitSync | null {
  const read = gitSyncsReadWithSpaces.get(ctx, space);
  return read !== undefined ? read : gitSyncBySpaceLoader(ctx).load(space.id);
}

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
