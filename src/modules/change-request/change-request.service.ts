import { z } from "zod";
import { requireViewer } from "../../auth/access.ts";
import type { PrismaExecutor } from "../../db/database.ts";
import type { ChangeRequest, Prisma } from "../../db/generated/client.ts";
import { keysMatch } from "../../db/sql.ts";
import { followedBy } from "../../events/bus.ts";
import type { ChangeRequestUpdate } from "../../events/topics.ts";
import { ConflictError, loadedOrNull, NotFoundError } from "../../lib/errors.ts";
import { parentIdOf } from "../../lib/parent-id.ts";
import { documentSchema, parseInput } from "../../lib/validation.ts";
import { filterSql, type ListArgs, parseFilter, sortFor } from "../../paging/list-order.ts";
import { pageOfList } from "../../paging/memory-pagination.ts";
import { type PageArgs, paginateSql } from "../../paging/pagination.ts";
import { newId } from "../../platform/ids.ts";
import type { RequestContext } from "../../request/context.ts";
import {
  type ContentEdit,
  type ContentEditor,
  changesEditor,
  onLatestHead,
  prepareEdit,
  templateEditor,
  templateSchema,
  writeEdits,
} from "../content/content.public.ts";
import {
  getSpace,
  requireSpaceEditable,
  requireSpaceRole,
  spaceByIdLoader,
  spaceRole,
  visibleSpacesWhere,
} from "../space/space.public.ts";
import {
  changeRequestByIdLoader,
  changeRequestByNumberLoader,
  contributorOrder,
  contributorsLoader,
} from "./change-request.loaders.ts";
import { settleChangeRequestFields } from "./change-request-fields.service.ts";
import {
  changeRequestFilterRules,
  changeRequestFilterSchema,
  changeRequestListOrder,
  changeRequestOrder,
} from "./change-request-list.ts";

const changeRequestStatuses = ["draft", "open", "archived", "merged"] as const;
export type ChangeRequestStatus = (typeof changeRequestStatuses)[number];

/** The space counter column that counts change requests in each status (merged and archived count in the total only). */
const statusCounter: Partial<Record<ChangeRequestStatus, "changeRequestsOpen" | "changeRequestsDraft">> = {
  open: "changeRequestsOpen",
  draft: "changeRequestsDraft",
};

export function counterChanges(from: ChangeRequestStatus | null, to: ChangeRequestStatus): Prisma.SpaceUpdateInput {
  const data: Prisma.SpaceUpdateInput = {};
  const fromCounter = from ? statusCounter[from] : undefined;
  const toCounter = statusCounter[to];
  if (fromCounter === toCounter) return data;
  if (fromCounter) data[fromCounter] = { decrement: 1 };
  if (toCounter) data[toCounter] = { increment: 1 };
  return data;
}

/**
 * The space of a change request a mutation names: the one given (REST paths pass it; the change request may then be
 * named by its number), or else the change request's own, by its id, for whoever may read it (`parentIdOf`).
 */
export function changeRequestSpaceId(
  ctx: RequestContext,
  spaceId: string | null | undefined,
  idOrNumber: string,
): Promise<string> {
  return parentIdOf(spaceId, {
    own: async () => (await changeRequestByIdLoader(ctx).load(idOrNumber))?.spaceId,
    visible: (id) => getSpace(ctx, id),
    notFound: `Change request ${idOrNumber} not found`,
  });
}

/**
 * A change request of a space the viewer may read, by id or by its number in the space (the public API accepts
 * both in `{changeRequestId}`); 404 otherwise. Without `givenSpaceId`, by its id (`changeRequestSpaceId`).
 */
export async function getChangeRequest(
  ctx: RequestContext,
  givenSpaceId: string | null | undefined,
  idOrNumber: string,
) {
  const spaceId = await changeRequestSpaceId(ctx, givenSpaceId, idOrNumber);
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
    rows.map(async (value) => {
      const row = loadedOrNull(value);
      if (!row) return null;
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
export async function announce<Result>(ctx: RequestContext, changeRequestId: string, result: Result): Promise<Result> {
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

export const changeRequestFiltersSchema = z.strictObject({
  status: z.enum(changeRequestStatuses).nullish().describe("Only change requests with this status; default open"),
  creator: z.string().min(1).nullish().describe("Only change requests created by this user id"),
  contributor: z.string().min(1).nullish().describe("Only change requests this user id wrote content into"),
  requestedReviewer: z.string().min(1).nullish().describe("Only change requests this user id was asked to review"),
});

export type ChangeRequestFilters = z.input<typeof changeRequestFiltersSchema>;

/**
 * Lists a space's or an organization's change requests (status `open` unless asked), newest first. Lists reach
 * a thousand rows a page: hand-written SQL (`paginateSql`); an organization's list covers the spaces the viewer
 * may see, read first with the space rules (`visibleSpacesWhere`).
 */
export async function listChangeRequests(
  ctx: RequestContext,
  scope: { spaceId: string } | { organizationId: string; siteId: string | null; spaceId: string | null },
  filters: ChangeRequestFilters,
  page: PageArgs,
  list: ListArgs,
  settleFields: boolean,
) {
  const { status, creator, contributor, requestedReviewer } = parseInput(changeRequestFiltersSchema, filters);
  const sort = sortFor(changeRequestListOrder, list.orderBy, changeRequestOrder);
  const filter = parseFilter(changeRequestFilterSchema, list.filter);
  let spaceIds: string[];
  if (!("organizationId" in scope)) {
    await getSpace(ctx, scope.spaceId);
    spaceIds = [scope.spaceId];
  } else {
    // The site and space filters narrow the visible spaces: an id the viewer cannot see lists nothing.
    const narrowed: Prisma.SpaceWhereInput[] = [await visibleSpacesWhere(ctx, scope.organizationId)];
    if (scope.spaceId) narrowed.push({ id: scope.spaceId });
    if (scope.siteId) narrowed.push({ siteSpaces: { some: { siteId: scope.siteId } } });
    const visible = await ctx.prisma.space.findMany({ where: { AND: narrowed }, select: { id: true } });
    spaceIds = visible.map((space) => space.id);
  }
  const found = await paginateSql<ChangeRequest>(ctx.sql, page, {
    sort,
    table: `"ChangeRequest"`,
    parents: { createdById: creator },
    where: (bind) => {
      const conditions = [
        `t.status = ${bind(status ?? "open")}`,
        `t."spaceId" ${keysMatch(spaceIds, bind)}`,
        ...filterSql(changeRequestFilterRules, filter, bind),
      ];
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
  if (settleFields) {
    await settleChangeRequestFields(
      ctx,
      found.edges.map((edge) => edge.node),
    );
  }
  return found;
}

export const createChangeRequestSchema = z.strictObject({
  subject: z.string().max(100).optional().describe("The change request's title; default empty"),
  template: templateSchema
    .optional()
    .describe("A content template applied to its content as it is created (a refused template creates nothing)"),
});

/**
 * Opens a change request on the space's current content. Its number is the space's counter, incremented in the
 * same transaction: concurrent creations queue on the space row, so numbers have no gaps and no duplicates. A
 * `template` is applied to its content in that transaction too, so a refused template creates nothing.
 */
export async function createChangeRequest(ctx: RequestContext, spaceId: string, input: unknown) {
  const target = await requireSpaceEditable(ctx, spaceId);
  const data = parseInput(createChangeRequestSchema, input);
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
    // Templates add small pages (their links convert on the event loop at once): prepared inside the transaction,
    // which gave the head they apply to.
    const head = { spaceId, revisionId: space.revisionId, changeRequestId };
    const revisionId = template
      ? (await writeEdits(tx, ctx, await prepareEdit(ctx, tx, head, template))).revision
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

export const updateChangeRequestSchema = z.strictObject({
  subject: z.string().max(100).optional().describe("The change request's title"),
  description: documentSchema
    .nullable()
    .optional()
    .describe("What the change is about, as a rich-text document; null clears it"),
  status: z
    .enum(["draft", "open", "archived"])
    .optional()
    .describe("Draft or archived ones take no content, review or merge until reopened"),
});

/** Subject, description and status (draft, open, archived); a merged change request is final. */
export async function updateChangeRequest(
  ctx: RequestContext,
  givenSpaceId: string | null | undefined,
  idOrNumber: string,
  input: unknown,
) {
  const spaceId = await changeRequestSpaceId(ctx, givenSpaceId, idOrNumber);
  await requireSpaceRole(ctx, spaceId, "edit");
  const changeRequest = await getChangeRequest(ctx, spaceId, idOrNumber);
  const data = parseInput(updateChangeRequestSchema, input);
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
export function requireWritable(changeRequest: ChangeRequest) {
  if (changeRequest.status === "merged" || changeRequest.status === "archived") {
    throw new ConflictError(`The change request is ${changeRequest.status}: reopen it (status open) to change it`);
  }
}

/** Writes content changes into the change request as one new revision. */
export async function writeChangeRequestContent(
  ctx: RequestContext,
  spaceId: string | null | undefined,
  idOrNumber: string,
  input: unknown,
): Promise<ContentEdit> {
  const editor = changesEditor(input);
  return editChangeRequestContent(ctx, await changeRequestSpaceId(ctx, spaceId, idOrNumber), idOrNumber, editor);
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
    const head = { spaceId, revisionId: changeRequest.revisionId, changeRequestId: id };
    const prepared = await prepareEdit(ctx, ctx.prisma, head, edit);
    return ctx.prisma.$transaction(async (tx) => {
      const written = await writeEdits(tx, ctx, prepared);
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
export async function moveChangeRequestHead(
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

/** A page of who wrote content into the change request; first pages of many share one statement (the loader). */
export async function listContributors(ctx: RequestContext, changeRequest: ChangeRequest, page: PageArgs) {
  const rows = await contributorsLoader(ctx).load(changeRequest.id);
  return pageOfList(page, contributorOrder, rows, { changeRequestId: changeRequest.id });
}
