import type { ChangeRequest, ChangeRequestContributor, ChangeRequestReview } from "../../db/generated/client.ts";
import type { SortKey } from "../../paging/pagination.ts";
import type { RequestContext } from "../../request/context.ts";
import { byKeys, defineLoader } from "../../request/loaders.ts";

/** Change requests by id, without access checks: services decide what the viewer may see. */
export const changeRequestByIdLoader = defineLoader<string, ChangeRequest | null>(
  "changeRequestById",
  async (ctx, ids) => {
    const rows = await ctx.prisma.changeRequest.findMany({ where: { id: { in: [...ids] } } });
    return byKeys(ids, rows, (row) => row.id);
  },
);

/**
 * The change request of a row the caller has read (its parent field, `review.changeRequest`): whoever may read a
 * review or a comment of a change request may read the change request, so no second check.
 */
export async function parentChangeRequest(ctx: RequestContext, changeRequestId: string): Promise<ChangeRequest> {
  const changeRequest = await changeRequestByIdLoader(ctx).load(changeRequestId);
  if (!changeRequest) throw new Error(`Change request ${changeRequestId} is missing`);
  return changeRequest;
}

export interface ChangeRequestNumberKey {
  spaceId: string;
  number: number;
}

/** Change requests by their number within a space. */
export const changeRequestByNumberLoader = defineLoader<ChangeRequestNumberKey, ChangeRequest | null, string>(
  "changeRequestByNumber",
  async (ctx, keys) => {
    const rows = await ctx.prisma.changeRequest.findMany({
      where: { OR: keys.map((key) => ({ spaceId: key.spaceId, number: key.number })) },
    });
    return byKeys(
      keys.map((key) => `${key.spaceId}:${key.number}`),
      rows,
      (row) => `${row.spaceId}:${row.number}`,
    );
  },
  { cacheKeyFn: (key) => `${key.spaceId}:${key.number}` },
);

/** Reviews of each change request, oldest first. */
export const reviewsLoader = defineLoader<string, ChangeRequestReview[]>("changeRequestReviews", async (ctx, ids) => {
  const rows = await ctx.prisma.changeRequestReview.findMany({
    where: { changeRequestId: { in: [...ids] } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return ids.map((id) => rows.filter((row) => row.changeRequestId === id));
});

/** A change request's contributors, first to write first. */
export const contributorOrder: SortKey<ChangeRequestContributor>[] = [
  { field: "createdAt", direction: "asc" },
  { field: "userId", direction: "asc" },
];

/** Who wrote content into each change request, in `contributorOrder`. */
export const contributorsLoader = defineLoader<string, ChangeRequestContributor[]>(
  "changeRequestContributors",
  async (ctx, ids) => {
    const rows = await ctx.prisma.changeRequestContributor.findMany({
      where: { changeRequestId: { in: [...ids] } },
      orderBy: contributorOrder.map((key) => ({ [key.field]: key.direction })),
    });
    return ids.map((id) => rows.filter((row) => row.changeRequestId === id));
  },
);
