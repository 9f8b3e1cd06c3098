import { z } from "zod";
import { requireViewer } from "../../auth/access.ts";
import { hasRole } from "../../auth/roles.ts";
import type { RequestContext } from "../../context.ts";
import type { PrismaExecutor } from "../../db/database.ts";
import type {
  ChangeRequest,
  ChangeRequestReview,
  ChangeRequestReviewer,
  Prisma,
  Space,
} from "../../db/generated/client.ts";
import { followedBy } from "../../events/bus.ts";
import type { ChangeRequestUpdate } from "../../events/topics.ts";
import { newId } from "../../ids.ts";
import { ConflictError, ForbiddenError, InvalidInputError, NotFoundError } from "../../lib/errors.ts";
import { type PageArgs, paginate, paginateSql, type SortKey } from "../../pagination.ts";
import { documentSchema, parseInput } from "../../validation.ts";
import {
  type ContentEdit,
  type ContentEditor,
  changesEditor,
  createPdfExport,
  onLatestHead,
  revisionOf,
  writeEdits,
} from "../content/content.service.ts";
import { type ContentState, type MergeConflict, mergeContent } from "../content/content-state.ts";
import { readContentState, writeRevision } from "../content/revision.service.ts";
import { spaceByIdLoader } from "../space/space.loaders.ts";
import {
  getSpace,
  requireSpaceEditable,
  requireSpaceRole,
  spaceRole,
  visibleSpacesWhere,
} from "../space/space.service.ts";
import { templateEditor, templateSchema } from "../template/templates.ts";
import {
  changeRequestByIdLoader,
  changeRequestByNumberLoader,
  contributorsLoader,
  reviewsLoader,
} from "./change-request.loaders.ts";

const changeRequestStatuses = ["draft", "open", "archived", "merged"] as const;
type ChangeRequestStatus = (typeof changeRequestStatuses)[number];

/** The space counter column that counts change requests in each status (merged and archived count in the total only). */
const statusCounter: Partial<Record<ChangeRequestStatus, "changeRequestsOpen" | "changeRequestsDraft">> = {
  open: "changeRequestsOpen",
  draft: "changeRequestsDraft",
};

function counterChanges(from: ChangeRequestStatus | null, to: ChangeRequestStatus): Prisma.SpaceUpdateInput {
  const data: Prisma.SpaceUpdateInput = {};
  const fromCounter = from ? statusCounter[from] : undefined;
  const toCounter = statusCounter[to];
  if (fromCounter === toCounter) return data;
  if (fromCounter) data[fromCounter] = { decrement: 1 };
  if (toCounter) data[toCounter] = { increment: 1 };
  return data;
}

/**
 * A change request of a space the viewer may read, by id or by its number in the space (the public API accepts
 * both in `{changeRequestId}`); 404 otherwise.
 */
export async function getChangeRequest(ctx: RequestContext, spaceId: string, idOrNumber: string) {
  const space = await getSpace(ctx, spaceId);
  const changeRequest = /^\d{1,9}$/.test(idOrNumber)
    ? await changeRequestByNumberLoader(ctx).load({ spaceId, number: Number(idOrNumber) })
    : await changeRequestByIdLoader(ctx).load(idOrNumber);
  if (!changeRequest || changeRequest.spaceId !== space.id) {
    throw new NotFoundError(`Change request ${idOrNumber} not found`);
  }
  return changeRequest;
}

/** For `node(id:)`: change requests whose space the viewer may read, null otherwise. */
export async function loadVisibleChangeRequests(ctx: RequestContext, ids: readonly string[]) {
  requireViewer(ctx);
  const rows = await changeRequestByIdLoader(ctx).loadMany(ids);
  return Promise.all(
    rows.map(async (row) => {
      if (!row || row instanceof Error) return null;
      const space = await spaceByIdLoader(ctx).load(row.spaceId);
      return space && !space.deletedAt && (await spaceRole(ctx, space)) ? row : null;
    }),
  );
}

function changeRequestUpdateOf(changeRequest: ChangeRequest): ChangeRequestUpdate {
  return {
    id: changeRequest.id,
    spaceId: changeRequest.spaceId,
    number: changeRequest.number,
    status: changeRequest.status as ChangeRequestStatus,
    subject: changeRequest.subject,
    revision: changeRequest.revisionId,
    revisionMerged: changeRequest.revisionMerged,
    updatedAt: changeRequest.updatedAt.toISOString(),
  };
}

/** Tells the change request's watchers (subscription `changeRequestUpdated`) its new state, once written. */
async function announce<Result>(ctx: RequestContext, changeRequestId: string, result: Result): Promise<Result> {
  const changeRequest = await ctx.prisma.changeRequest.findUnique({ where: { id: changeRequestId } });
  if (changeRequest)
    await ctx.events.publish("changeRequestUpdated", changeRequestId, changeRequestUpdateOf(changeRequest));
  return result;
}

/** The change request's state now, then each change until it is merged (server-sent events). */
export async function watchChangeRequest(ctx: RequestContext, spaceId: string, idOrNumber: string) {
  const { id } = await getChangeRequest(ctx, spaceId, idOrNumber);
  const subscription = ctx.events.subscribe("changeRequestUpdated", id);
  const current = await ctx.prisma.changeRequest.findUniqueOrThrow({ where: { id } });
  return followedBy([changeRequestUpdateOf(current)], subscription, (update) => update.status === "merged");
}

/** Every comment and reply posted on the change request from now on. */
export async function watchChangeRequestComments(ctx: RequestContext, spaceId: string, idOrNumber: string) {
  const { id } = await getChangeRequest(ctx, spaceId, idOrNumber);
  return followedBy([], ctx.events.subscribe("changeRequestCommentPosted", id), () => false);
}

/** True when the space moved on since the change request last took in its content. */
export async function isOutdated(ctx: RequestContext, changeRequest: ChangeRequest): Promise<boolean> {
  if (changeRequest.status === "merged") return false;
  const space = await spaceByIdLoader(ctx).load(changeRequest.spaceId);
  return Boolean(space && space.revisionId !== mergeBaseOf(changeRequest));
}

/** The space revision the change request last took in: the common ancestor of both sides. */
function mergeBaseOf(changeRequest: ChangeRequest): string {
  return changeRequest.revisionMergedAncestor ?? changeRequest.revisionInitial;
}

const listFiltersSchema = z.strictObject({
  status: z.enum(changeRequestStatuses).nullish(),
  creator: z.string().min(1).nullish(),
  contributor: z.string().min(1).nullish(),
  requestedReviewer: z.string().min(1).nullish(),
  orderBy: z.enum(["updatedAt", "createdAt"]).nullish(),
});

export type ChangeRequestFilters = z.input<typeof listFiltersSchema>;

/**
 * Lists a space's or an organization's change requests (status `open` unless asked), newest first. Lists reach
 * a thousand rows a page: hand-written SQL (`paginateSql`); an organization's list covers the spaces the viewer
 * may see, read first with the space rules (`visibleSpacesWhere`).
 */
export async function listChangeRequests(
  ctx: RequestContext,
  scope: { spaceId: string } | { organizationId: string },
  filters: ChangeRequestFilters,
  page: PageArgs,
) {
  const { status, creator, contributor, requestedReviewer, orderBy } = parseInput(listFiltersSchema, filters);
  let spaceIds: string[];
  if ("spaceId" in scope) {
    await getSpace(ctx, scope.spaceId);
    spaceIds = [scope.spaceId];
  } else {
    const visible = await ctx.prisma.space.findMany({
      where: await visibleSpacesWhere(ctx, scope.organizationId),
      select: { id: true },
    });
    spaceIds = visible.map((space) => space.id);
  }
  const sort: SortKey<ChangeRequest>[] = [
    { field: orderBy ?? "updatedAt", direction: "desc" },
    { field: "id", direction: "desc" },
  ];
  return paginateSql<ChangeRequest>(ctx.sql, page, {
    sort,
    table: `"ChangeRequest"`,
    where: (bind) => {
      const conditions = [`t.status = ${bind(status ?? "open")}`, `t."spaceId" = ANY(${bind(spaceIds)})`];
      if (creator) conditions.push(`t."createdById" = ${bind(creator)}`);
      if (contributor) {
        conditions.push(
          `EXISTS (SELECT 1 FROM "ChangeRequestContributor" c WHERE c."changeRequestId" = t.id AND c."userId" = ${bind(contributor)})`,
        );
      }
      if (requestedReviewer) {
        conditions.push(
          `EXISTS (SELECT 1 FROM "ChangeRequestReviewer" r WHERE r."changeRequestId" = t.id AND r."userId" = ${bind(requestedReviewer)})`,
        );
      }
      return conditions;
    },
  });
}

const createSchema = z.strictObject({
  subject: z.string().max(100).optional(),
  template: templateSchema.optional(),
});

/**
 * Opens a change request on the space's current content. Its number is the space's counter, incremented in the
 * same transaction: concurrent creations queue on the space row, so numbers have no gaps and no duplicates. A
 * `template` is applied to its content in that transaction too, so a refused template creates nothing.
 */
export async function createChangeRequest(ctx: RequestContext, spaceId: string, input: unknown) {
  const target = await requireSpaceEditable(ctx, spaceId);
  const data = parseInput(createSchema, input);
  const template = data.template ? await templateEditor(ctx, target, data.template) : null;
  const userId = requireViewer(ctx).userId;
  const created = await ctx.prisma.$transaction(async (tx) => {
    const now = ctx.clock.now();
    const space = await tx.space.update({
      where: { id: spaceId },
      data: {
        changeRequestNumber: { increment: 1 },
        changeRequests: { increment: 1 },
        ...counterChanges(null, "open"),
      },
    });
    const changeRequestId = newId("ChangeRequest");
    const revisionId = template
      ? (
          await writeEdits(
            tx,
            ctx,
            { spaceId, revisionId: space.revisionId, changeRequestId },
            await readContentState(tx, space.revisionId),
            template,
          )
        ).revision
      : space.revisionId;
    const changeRequest = await tx.changeRequest.create({
      data: {
        id: changeRequestId,
        spaceId,
        organizationId: space.organizationId,
        number: space.changeRequestNumber,
        status: "open",
        subject: data.subject ?? "",
        createdById: userId,
        revisionId,
        revisionInitial: space.revisionId,
        createdAt: now,
        updatedAt: now,
      },
    });
    if (template) await addContributor(tx, changeRequestId, userId, now);
    return changeRequest;
  });
  return announce(ctx, created.id, created);
}

const updateSchema = z.strictObject({
  subject: z.string().max(100).optional(),
  description: documentSchema.nullable().optional(),
  status: z.enum(["draft", "open", "archived"]).optional(),
});

/** Subject, description and status (draft, open, archived); a merged change request is final. */
export async function updateChangeRequest(ctx: RequestContext, spaceId: string, idOrNumber: string, input: unknown) {
  await requireSpaceRole(ctx, spaceId, "edit");
  const changeRequest = await getChangeRequest(ctx, spaceId, idOrNumber);
  const data = parseInput(updateSchema, input);
  const updated = await ctx.prisma.$transaction(async (tx) => {
    const current = await tx.changeRequest.findUniqueOrThrow({ where: { id: changeRequest.id } });
    if (current.status === "merged") throw new ConflictError("A merged change request cannot be changed");
    if (data.status && data.status !== current.status) {
      await tx.space.update({
        where: { id: spaceId },
        data: counterChanges(current.status as ChangeRequestStatus, data.status),
      });
    }
    return tx.changeRequest.update({
      where: { id: current.id },
      data: {
        subject: data.subject,
        description: data.description === null ? { set: null } : (data.description as Prisma.InputJsonValue),
        status: data.status,
        updatedAt: ctx.clock.now(),
      },
    });
  });
  return announce(ctx, updated.id, updated);
}

/** Content can be written, updated and merged while the change request is a draft or open. */
function requireWritable(changeRequest: ChangeRequest) {
  if (changeRequest.status === "merged" || changeRequest.status === "archived") {
    throw new ConflictError(`The change request is ${changeRequest.status}: reopen it (status open) to change it`);
  }
}

/** Writes content changes into the change request as one new revision. */
export function writeChangeRequestContent(
  ctx: RequestContext,
  spaceId: string,
  idOrNumber: string,
  input: unknown,
): Promise<ContentEdit> {
  return editChangeRequestContent(ctx, spaceId, idOrNumber, changesEditor(input));
}

/** Writes an editor's result as the change request's next revision, all or nothing. */
export async function editChangeRequestContent(
  ctx: RequestContext,
  spaceId: string,
  idOrNumber: string,
  edit: ContentEditor,
): Promise<ContentEdit> {
  await requireSpaceEditable(ctx, spaceId);
  const { id } = await getChangeRequest(ctx, spaceId, idOrNumber);
  const userId = requireViewer(ctx).userId;
  const written = await onLatestHead(async (headMoved) => {
    const changeRequest = await ctx.prisma.changeRequest.findUniqueOrThrow({ where: { id } });
    requireWritable(changeRequest);
    const base = await readContentState(ctx.prisma, changeRequest.revisionId);
    return ctx.prisma.$transaction(async (tx) => {
      const head = { spaceId, revisionId: changeRequest.revisionId, changeRequestId: id };
      const written = await writeEdits(tx, ctx, head, base, edit);
      await moveChangeRequestHead(tx, changeRequest, { revisionId: written.revision }, headMoved, ctx.clock.now());
      await addContributor(tx, id, userId, ctx.clock.now());
      return written;
    });
  });
  return announce(ctx, id, written);
}

function addContributor(tx: PrismaExecutor, changeRequestId: string, userId: string, now: Date) {
  return tx.changeRequestContributor.createMany({
    data: [{ changeRequestId, userId, createdAt: now }],
    skipDuplicates: true,
  });
}

/** Moves a change request to a new revision if nobody else moved it since it was read. */
async function moveChangeRequestHead(
  tx: PrismaExecutor,
  changeRequest: ChangeRequest,
  data: Prisma.ChangeRequestUpdateManyMutationInput,
  headMoved: () => never,
  now: Date,
) {
  const { count } = await tx.changeRequest.updateMany({
    where: { id: changeRequest.id, revisionId: changeRequest.revisionId, status: changeRequest.status },
    data: { ...data, updatedAt: now },
  });
  if (count === 0) headMoved();
}

function conflictError(conflicts: MergeConflict[]): ConflictError {
  const listed = conflicts
    .slice(0, 20)
    .map((conflict) => `"${conflict.title}" (${conflict.id}): ${conflict.reason}`)
    .join("; ");
  return new ConflictError(`Merge conflicts on ${conflicts.length} item(s): ${listed}`);
}

/** `theirs` merged into `ours` against their common ancestor `base`; 409 naming every conflict otherwise. */
async function mergeRevisions(ctx: RequestContext, base: string, ours: string, theirs: string) {
  const [baseState, oursState, theirsState] = await Promise.all(
    [base, ours, theirs].map((revisionId) => readContentState(ctx.prisma, revisionId)),
  );
  const { state, conflicts } = mergeContent(
    baseState as ContentState,
    oursState as ContentState,
    theirsState as ContentState,
  );
  if (conflicts.length > 0) throw conflictError(conflicts);
  return state;
}

export interface MergeResult {
  revision: string;
  result: "merge" | "update";
}

/**
 * Pulls the space's current content into the change request (three-way merge against the last space revision
 * it took in). Nothing to pull answers the change request's own revision.
 */
export async function updateChangeRequestFromSpace(
  ctx: RequestContext,
  spaceId: string,
  idOrNumber: string,
): Promise<MergeResult> {
  await requireSpaceEditable(ctx, spaceId);
  const { id } = await getChangeRequest(ctx, spaceId, idOrNumber);
  const result = await onLatestHead(async (headMoved) => {
    const [changeRequest, space] = await Promise.all([
      ctx.prisma.changeRequest.findUniqueOrThrow({ where: { id } }),
      ctx.prisma.space.findUniqueOrThrow({ where: { id: spaceId } }),
    ]);
    requireWritable(changeRequest);
    if (space.revisionId === mergeBaseOf(changeRequest)) {
      return { revision: changeRequest.revisionId, result: "update" as const };
    }
    const state = await mergeRevisions(ctx, mergeBaseOf(changeRequest), changeRequest.revisionId, space.revisionId);
    return ctx.prisma.$transaction(async (tx) => {
      const now = ctx.clock.now();
      const revision = await writeRevision(tx, {
        spaceId,
        parents: [changeRequest.revisionId, space.revisionId],
        type: "update",
        changeRequestId: id,
        createdById: requireViewer(ctx).userId,
        createdAt: now,
        state,
      });
      await moveChangeRequestHead(
        tx,
        changeRequest,
        { revisionId: revision, revisionMergedAncestor: space.revisionId },
        headMoved,
        now,
      );
      return { revision, result: "update" as const };
    });
  });
  return announce(ctx, id, result);
}

interface MergeRule {
  rule: string;
  users?: string[];
}

/**
 * The space's merge rules: `require_specific_reviewers` needs an approval from each listed user, given on the
 * change request's current revision and not superseded by a later review of theirs.
 */
async function requireMergeRules(ctx: RequestContext, space: Space, changeRequest: ChangeRequest) {
  const rules = space.mergeRules as unknown as { type: string; rules?: MergeRule[] };
  if (rules.type !== "rules") return;
  const reviews = await ctx.prisma.changeRequestReview.findMany({
    where: { changeRequestId: changeRequest.id },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  const latest = new Map<string, ChangeRequestReview>();
  for (const review of reviews) latest.set(review.reviewerId, review);
  for (const rule of rules.rules ?? []) {
    if (rule.rule !== "require_specific_reviewers") continue;
    const missing = (rule.users ?? []).filter((userId) => {
      const review = latest.get(userId);
      return review?.status !== "approved" || review.revisionId !== changeRequest.revisionId;
    });
    if (missing.length > 0) {
      throw new ForbiddenError(
        `The space's merge rules require an approval of the current changes from: ${missing.join(", ")}`,
      );
    }
  }
}

/**
 * Merges the change request into the space: a three-way merge against their common ancestor, written in one
 * transaction that moves the space only if it is still at the revision the merge started from. A merge that
 * loses that race starts over on the new space revision, so concurrent merges never drop each other's changes.
 */
export async function mergeChangeRequest(
  ctx: RequestContext,
  spaceId: string,
  idOrNumber: string,
): Promise<MergeResult> {
  await requireSpaceRole(ctx, spaceId, "review");
  await requireSpaceEditable(ctx, spaceId);
  const { id } = await getChangeRequest(ctx, spaceId, idOrNumber);
  const result = await onLatestHead(async (headMoved) => {
    const [changeRequest, space] = await Promise.all([
      ctx.prisma.changeRequest.findUniqueOrThrow({ where: { id } }),
      ctx.prisma.space.findUniqueOrThrow({ where: { id: spaceId } }),
    ]);
    requireWritable(changeRequest);
    await requireMergeRules(ctx, space, changeRequest);
    const state = await mergeRevisions(ctx, mergeBaseOf(changeRequest), space.revisionId, changeRequest.revisionId);
    return ctx.prisma.$transaction(async (tx) => {
      const now = ctx.clock.now();
      const revision = await writeRevision(tx, {
        spaceId,
        parents: [space.revisionId, changeRequest.revisionId],
        type: "merge",
        changeRequestId: id,
        createdById: requireViewer(ctx).userId,
        createdAt: now,
        state,
      });
      const moved = await tx.space.updateMany({
        where: { id: spaceId, revisionId: space.revisionId, deletedAt: null },
        data: {
          revisionId: revision,
          updatedAt: now,
          ...counterChanges(changeRequest.status as ChangeRequestStatus, "merged"),
        },
      });
      if (moved.count === 0) headMoved();
      await moveChangeRequestHead(
        tx,
        changeRequest,
        { status: "merged", revisionMerged: revision, mergedAt: now },
        headMoved,
        now,
      );
      return { revision, result: "merge" as const };
    });
  });
  return announce(ctx, id, result);
}

/** A one-hour PDF link of the change request's content, or of one page (`only`: without its subpages). */
export async function changeRequestPdf(
  ctx: RequestContext,
  changeRequest: ChangeRequest,
  options: { page?: string | null; only?: boolean | null },
) {
  const space = await getSpace(ctx, changeRequest.spaceId);
  const revision = await revisionOf(ctx, changeRequest.revisionId);
  const title = changeRequest.subject || `Change request #${changeRequest.number}`;
  return createPdfExport(ctx, space, revision, `${space.title}: ${title}`, {
    pageId: options.page,
    only: options.only,
  });
}

// ---- Reviews ----

const reviewSchema = z.strictObject({
  status: z.enum(["approved", "changes-requested"]),
  comment: z.unknown().optional(),
});

/** A review of the change request's current revision (review role; authors may not approve their own). */
export async function submitReview(ctx: RequestContext, spaceId: string, idOrNumber: string, input: unknown) {
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

export function listReviews(ctx: RequestContext, changeRequest: ChangeRequest, page: PageArgs) {
  return paginate<ChangeRequestReview>(page, {
    model: ctx.prisma.changeRequestReview,
    where: { changeRequestId: changeRequest.id },
    sort: [
      { field: "createdAt", direction: "desc" },
      { field: "id", direction: "desc" },
    ],
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

const requestReviewersSchema = z.strictObject({
  users: z.array(z.string().min(1)).min(1).max(100),
  subject: z.string().max(100).optional(),
  description: documentSchema.optional(),
});

/** Asks members who may review the space to review the change request (edit role). */
export async function requestReviewers(ctx: RequestContext, spaceId: string, idOrNumber: string, input: unknown) {
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

export async function removeRequestedReviewer(
  ctx: RequestContext,
  spaceId: string,
  idOrNumber: string,
  userId: string,
): Promise<void> {
  await requireSpaceRole(ctx, spaceId, "edit");
  const changeRequest = await getChangeRequest(ctx, spaceId, idOrNumber);
  await ctx.prisma.changeRequestReviewer.deleteMany({ where: { changeRequestId: changeRequest.id, userId } });
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

export function listContributors(ctx: RequestContext, changeRequest: ChangeRequest) {
  return contributorsLoader(ctx).load(changeRequest.id);
}

/** What the viewer may do with a change request (for clients deciding which actions to show). */
export async function changeRequestPermissions(ctx: RequestContext, changeRequest: ChangeRequest) {
  const space = await spaceByIdLoader(ctx).load(changeRequest.spaceId);
  const role = space ? await spaceRole(ctx, space) : null;
  const open = changeRequest.status === "open" || changeRequest.status === "draft";
  const editable = open && space?.editMode !== "locked";
  return {
    edit: editable && hasRole(role, "edit"),
    review: open && hasRole(role, "review"),
    merge: editable && hasRole(role, "review"),
  };
}
