import { z } from "zod";
import { requireViewer } from "../../auth/access.ts";
import type { ChangeRequest, ChangeRequestReview, ChangeRequestReviewer, Prisma } from "../../db/generated/client.ts";
import { ForbiddenError, InvalidInputError, NotFoundError, nullWhereRefused } from "../../lib/errors.ts";
import { documentSchema, parseInput } from "../../lib/validation.ts";
import { type PageArgs, paginate, type SortKey } from "../../paging/pagination.ts";
import { newId, pairIdOf, parsePairIds } from "../../platform/ids.ts";
import type { RequestContext } from "../../request/context.ts";
import { requireSpaceRole } from "../space/space.public.ts";
import { changeRequestByIdLoader, reviewsLoader } from "./change-request.loaders.ts";

import { changeRequestSpaceId, getChangeRequest, requireWritable } from "./change-request.service.ts";

export const reviewSchema = z.strictObject({
  status: z
    .enum(["approved", "changes-requested"])
    .describe("The verdict on the change request's current revision (authors may not approve their own)"),
  comment: z.unknown().optional().describe("Refused when given: post review comments as comments"),
});

/** A review of the change request's current revision (review role; authors may not approve their own). */
export async function submitReview(
  ctx: RequestContext,
  givenSpaceId: string | null | undefined,
  idOrNumber: string,
  input: unknown,
) {
  const spaceId = await changeRequestSpaceId(ctx, givenSpaceId, idOrNumber);
  await requireSpaceRole(ctx, spaceId, "review");
  const changeRequest = await getChangeRequest(ctx, spaceId, idOrNumber);
  requireWritable(changeRequest);
  const data = parseInput(reviewSchema, input);
  if (data.comment !== undefined) throw new InvalidInputError("Review comments arrive with comments; send status only");
  const userId = requireViewer(ctx).userId;
  if (data.status === "approved" && changeRequest.createdById === userId) {
    throw new ForbiddenError("Authors cannot approve their own change request");
  }
  const now = ctx.clock.now();
  const request = await ctx.prisma.changeRequestReviewer.findUnique({
    where: { changeRequestId_userId: { changeRequestId: changeRequest.id, userId } },
  });
  return ctx.prisma.changeRequestReview.create({
    data: {
      id: newId("ChangeRequestReview"),
      changeRequestId: changeRequest.id,
      reviewerId: userId,
      requestedById: request?.requestedById ?? null,
      status: data.status,
      revisionId: changeRequest.revisionId,
      createdAt: now,
      updatedAt: now,
    },
  });
}

/** A change request's reviews, newest first. */
export const reviewOrder: SortKey<ChangeRequestReview>[] = [
  { field: "createdAt", direction: "desc" },
  { field: "id", direction: "desc" },
];

export function listReviews(ctx: RequestContext, changeRequest: ChangeRequest, page: PageArgs) {
  return paginate<ChangeRequestReview>(page, {
    model: ctx.prisma.changeRequestReview,
    where: { changeRequestId: changeRequest.id },
    sort: reviewOrder,
  });
}

export async function getReview(ctx: RequestContext, changeRequest: ChangeRequest, reviewId: string) {
  const review = (await reviewsLoader(ctx).load(changeRequest.id)).find((row) => row.id === reviewId);
  if (!review) throw new NotFoundError(`Review ${reviewId} not found`);
  return review;
}

/** A review is outdated once the same reviewer reviewed again or the change request moved past its revision. */
export async function isReviewOutdated(ctx: RequestContext, review: ChangeRequestReview): Promise<boolean> {
  const [reviews, changeRequest] = await Promise.all([
    reviewsLoader(ctx).load(review.changeRequestId),
    changeRequestByIdLoader(ctx).load(review.changeRequestId),
  ]);
  const latest = reviews.filter((row) => row.reviewerId === review.reviewerId).at(-1);
  return latest?.id !== review.id || changeRequest?.revisionId !== review.revisionId;
}

export const requestReviewersSchema = z.strictObject({
  users: z
    .array(z.string().min(1))
    .min(1)
    .max(100)
    .describe("Ids of the users to ask, each a member of the space's organization"),
  subject: z.string().max(100).optional().describe("Replaces the change request's title"),
  description: documentSchema.optional().describe("Replaces the change request's description (a rich-text document)"),
});

/** Asks members who may review the space to review the change request (edit role). */
export async function requestReviewers(
  ctx: RequestContext,
  givenSpaceId: string | null | undefined,
  idOrNumber: string,
  input: unknown,
) {
  const spaceId = await changeRequestSpaceId(ctx, givenSpaceId, idOrNumber);
  const space = await requireSpaceRole(ctx, spaceId, "edit");
  const changeRequest = await getChangeRequest(ctx, spaceId, idOrNumber);
  requireWritable(changeRequest);
  const data = parseInput(requestReviewersSchema, input);
  const requestedById = requireViewer(ctx).userId;
  const members = await ctx.prisma.member.findMany({
    where: { organizationId: space.organizationId, userId: { in: data.users } },
    select: { userId: true },
  });
  const unknown = data.users.filter((userId) => !members.some((member) => member.userId === userId));
  if (unknown.length > 0) throw new InvalidInputError(`Not members of this organization: ${unknown.join(", ")}`);
  const now = ctx.clock.now();
  await ctx.prisma.$transaction(async (tx) => {
    await tx.changeRequestReviewer.createMany({
      data: [...new Set(data.users)].map((userId) => ({
        changeRequestId: changeRequest.id,
        userId,
        requestedById,
        revisionId: changeRequest.revisionId,
        requestedAt: now,
      })),
      skipDuplicates: true,
    });
    if (data.subject !== undefined || data.description !== undefined) {
      await tx.changeRequest.update({
        where: { id: changeRequest.id },
        data: {
          subject: data.subject,
          description: data.description as Prisma.InputJsonValue | undefined,
          updatedAt: now,
        },
      });
    }
  });
  return changeRequest;
}

/**
 * Returns the change request. Without `givenSpaceId` the change request's id (not its number) names the space; a
 * given space still has to hold it, as before (`changeRequestSpaceId`).
 */
export async function removeRequestedReviewer(
  ctx: RequestContext,
  givenSpaceId: string | null | undefined,
  idOrNumber: string,
  userId: string,
): Promise<ChangeRequest> {
  const spaceId = await changeRequestSpaceId(ctx, givenSpaceId, idOrNumber);
  await requireSpaceRole(ctx, spaceId, "edit");
  const changeRequest = await getChangeRequest(ctx, spaceId, idOrNumber);
  await ctx.prisma.changeRequestReviewer.deleteMany({ where: { changeRequestId: changeRequest.id, userId } });
  return changeRequest;
}

export function listRequestedReviewers(ctx: RequestContext, changeRequest: ChangeRequest, page: PageArgs) {
  return paginate<ChangeRequestReviewer>(page, {
    model: ctx.prisma.changeRequestReviewer,
    where: { changeRequestId: changeRequest.id },
    sort: [
      { field: "requestedAt", direction: "asc" },
      { field: "userId", direction: "asc" },
    ],
  });
}

/** A review request's global id (`crrq_<changeRequestId>:<userId>`): the node `node(id:)` answers. */
export const requestedReviewerIdOf = (changeRequestId: string, userId: string) =>
  pairIdOf("ChangeRequestRequestedReviewer", changeRequestId, userId);

/** Review requests for `node`/`nodes`, by their pair ids: where their change request is visible. */
export async function loadVisibleRequestedReviewers(ctx: RequestContext, ids: readonly string[]) {
  const pairs = parsePairIds("ChangeRequestRequestedReviewer", ids);
  if (pairs.length === 0) return ids.map(() => null);
  const rows = await ctx.prisma.changeRequestReviewer.findMany({
    where: { OR: pairs.map((pair) => ({ changeRequestId: pair.parentId, userId: pair.childId })) },
  });
  const keyed = rows.map((row) => ({ id: requestedReviewerIdOf(row.changeRequestId, row.userId), row }));
  return nullWhereRefused(ids, keyed, async ({ row }) => {
    const changeRequest = await changeRequestByIdLoader(ctx).load(row.changeRequestId);
    if (!changeRequest) return null;
    await getChangeRequest(ctx, changeRequest.spaceId, changeRequest.id);
    return row;
  });
}

/** Reviews for `node`/`nodes`: where their change request is visible (as `GET .../reviews/{reviewId}`). */
export async function loadVisibleReviews(ctx: RequestContext, ids: readonly string[]) {
  const rows = await ctx.prisma.changeRequestReview.findMany({
    where: { id: { in: [...ids] } },
    select: { id: true, changeRequestId: true },
  });
  return nullWhereRefused(ids, rows, async (row) => {
    const changeRequest = await changeRequestByIdLoader(ctx).load(row.changeRequestId);
    if (!changeRequest) return null;
    return getReview(ctx, await getChangeRequest(ctx, changeRequest.spaceId, changeRequest.id), row.id);
  });
}
