import { z } from "zod";
import { requireViewer } from "../../auth/access.ts";
import type { PrismaExecutor } from "../../db/database.ts";
import type { Comment, CommentReply } from "../../db/generated/client.ts";
import { ForbiddenError, InvalidInputError, NotFoundError } from "../../lib/errors.ts";
import { parentIdOf } from "../../lib/parent-id.ts";
import { parseInput } from "../../lib/validation.ts";
import { newId } from "../../platform/ids.ts";
import type { RequestContext } from "../../request/context.ts";
import { type Document, pageMarkdown, revisionOf, revisionPage } from "../content/content.public.ts";
import { requireSpaceRole } from "../space/space.public.ts";
import { replyByIdLoader, threadLoader } from "./comment.loaders.ts";
import {
  bodySchema,
  commentBase,
  getComment,
  getReply,
  loadVisibleComments,
  markdownOf,
  messagePermissions,
} from "./comment.service.ts";

/** The base for a write: the viewer needs the `comment` role on the space (403 below it, 404 when unseen). */
async function commentableBase(ctx: RequestContext, spaceId: string, changeRequestId: string | null | undefined) {
  const base = await commentBase(ctx, spaceId, changeRequestId);
  await requireSpaceRole(ctx, spaceId, "comment");
  return base;
}

/** The open-comment counter of the comment's base (the change request's or the space's), moved by `by`. */
async function moveOpenCounter(tx: PrismaExecutor, comment: Comment, by: 1 | -1) {
  const data = { comments: { increment: by } };
  if (comment.changeRequestId) await tx.changeRequest.update({ where: { id: comment.changeRequestId }, data });
  else await tx.space.update({ where: { id: comment.spaceId }, data });
}

/**
 * Resolves or reopens a thread. The conditional update decides who changed the state, so concurrent resolves move
 * the counter once.
 */
async function setResolved(tx: PrismaExecutor, comment: Comment, resolved: boolean, userId: string, now: Date) {
  const { count } = resolved
    ? await tx.comment.updateMany({
        where: { id: comment.id, resolvedAt: null },
        data: { resolvedAt: now, resolvedById: userId },
      })
    : await tx.comment.updateMany({
        where: { id: comment.id, resolvedAt: { not: null } },
        data: { resolvedAt: null, resolvedById: null },
      });
  if (count === 1) await moveOpenCounter(tx, comment, resolved ? -1 : 1);
}

const emojiSchema = z.string().trim().min(1).max(32);
const reactionsSchema = {
  addedReactions: z
    .array(emojiSchema)
    .max(20)
    .optional()
    .describe("Emojis (each 1..32 characters) the viewer reacts with; reacting twice keeps one reaction"),
  removedReactions: z
    .array(emojiSchema)
    .max(20)
    .optional()
    .describe("Emojis (each 1..32 characters) whose reaction by the viewer is taken back"),
};

/** The viewer's reactions: one per user and emoji, so adding twice keeps one. */
async function changeReactions(
  tx: PrismaExecutor,
  target: { targetId: string; commentId: string },
  userId: string,
  change: { addedReactions?: string[]; removedReactions?: string[] },
  now: Date,
) {
  if (change.removedReactions?.length) {
    await tx.commentReaction.deleteMany({
      where: { targetId: target.targetId, userId, emoji: { in: change.removedReactions } },
    });
  }
  if (change.addedReactions?.length) {
    await tx.commentReaction.createMany({
      data: [...new Set(change.addedReactions)].map((emoji) => ({ ...target, userId, emoji, reactedAt: now })),
      skipDuplicates: true,
    });
  }
}

function requireAuthor(ctx: RequestContext, postedById: string) {
  if (requireViewer(ctx).userId !== postedById) throw new ForbiddenError("Only its author can edit this message");
}

const cellKey = (cell: { record: string; definition: string }) => `${cell.record}/${cell.definition}`;

/** The node keys and table cells of a page's document, as the pages' converter gives them (keys are stable). */
function documentTargets(document: Document) {
  const nodes = new Set<string>();
  const cells = new Set<string>();
  const visit = (node: unknown) => {
    if (!node || typeof node !== "object") return;
    const { key, type, data } = node as { key?: unknown; type?: unknown; data?: Record<string, unknown> };
    if (typeof key === "string") nodes.add(key);
    if (type === "table" && data) {
      for (const record of Object.keys((data.records ?? {}) as object)) {
        for (const definition of Object.keys((data.definition ?? {}) as object))
          cells.add(cellKey({ record, definition }));
      }
    }
    for (const children of [(node as { nodes?: unknown }).nodes, (node as { fragments?: unknown }).fragments]) {
      if (Array.isArray(children)) children.forEach(visit);
    }
  };
  visit(document);
  return { nodes, cells };
}

export const tableCellSchema = z.strictObject({
  record: z.string().min(1).describe("The key of the table's record (row)"),
  definition: z.string().min(1).describe("The key of the table's column definition"),
});

export const postCommentSchema = z.strictObject({
  body: bodySchema.describe("The comment: markdown or a rich-text document"),
  page: z
    .string()
    .min(1)
    .optional()
    .describe("Id of the page it is about, in the revision the commenter sees; omitted: the whole content"),
  node: z.string().min(1).optional().describe("Key of a node (block) of that page's document; needs page"),
  tableCell: tableCellSchema.optional().describe("A cell of a table of that page; needs page"),
});

/**
 * Posts a comment on the revision the commenter sees (the space's current one, or the change request's); the
 * target page must exist there. The base's open-comment counter moves in the same transaction.
 */
export async function postComment(
  ctx: RequestContext,
  spaceId: string,
  changeRequestId: string | null | undefined,
  input: unknown,
): Promise<Comment> {
  const base = await commentableBase(ctx, spaceId, changeRequestId);
  const data = parseInput(postCommentSchema, input);
  const markdown = await markdownOf(ctx, data.body);
  const revision = await revisionOf(ctx, base.changeRequest?.revisionId ?? base.space.revisionId);
  if ((data.node || data.tableCell) && !data.page) {
    throw new InvalidInputError("Invalid input: page: a comment on a node or a table cell needs its page");
  }
  if (data.page) {
    const page = await revisionPage(ctx, revision, data.page);
    if (!page)
      throw new InvalidInputError(`Invalid input: page: ${data.page} is not a page of revision ${revision.id}`);
    const targets = documentTargets(await ctx.budget.convertUncharged("document", await pageMarkdown(ctx, page)));
    if (data.node && !targets.nodes.has(data.node)) {
      throw new InvalidInputError(`Invalid input: node: ${data.node} is not a node of page ${data.page}`);
    }
    if (data.tableCell && !targets.cells.has(cellKey(data.tableCell))) {
      throw new InvalidInputError(`Invalid input: tableCell: not a cell of a table of page ${data.page}`);
    }
  }
  const now = ctx.clock.now();
  const comment = await ctx.prisma.$transaction(async (tx) => {
    const comment = await tx.comment.create({
      data: {
        id: newId("Comment"),
        spaceId,
        changeRequestId: base.changeRequest?.id ?? null,
        postedById: requireViewer(ctx).userId,
        revisionId: revision.id,
        pageId: data.page ?? null,
        nodeId: data.node ?? null,
        tableCellRecord: data.tableCell?.record ?? null,
        tableCellDefinition: data.tableCell?.definition ?? null,
        markdown,
        postedAt: now,
      },
    });
    await moveOpenCounter(tx, comment, 1);
    return comment;
  });
  await announceCommentPosted(ctx, comment, null);
  return comment;
}

/** Tells the watchers of a change request (subscription `changeRequestCommentPosted`) about a new message. */
async function announceCommentPosted(ctx: RequestContext, comment: Comment, reply: CommentReply | null) {
  if (!comment.changeRequestId) return;
  await ctx.events.publish("changeRequestCommentPosted", comment.changeRequestId, {
    changeRequestId: comment.changeRequestId,
    commentId: comment.id,
    replyId: reply?.id ?? null,
    postedBy: (reply ?? comment).postedById,
    postedAt: (reply ?? comment).postedAt.toISOString(),
  });
}

const resolvedSchema = z.boolean().optional().describe("true resolves the thread, false reopens it");
const newBodySchema = bodySchema.optional().describe("A new body (the author only)");

export const updateCommentSchema = z.strictObject({
  resolved: resolvedSchema,
  body: newBodySchema,
  ...reactionsSchema,
});

/**
 * Where a message named by id lives, as a comment or reply mutation takes it: `spaceId` optional (the comment names
 * it), and for a reply `commentId` too (the reply names it); see `commentArgs` and `replyArgs`.
 */
interface ThreadPlace {
  spaceId?: string | null;
  changeRequestId?: string | null;
  commentId?: string | null;
}

/**
 * The space, change request and comment of a thread a mutation names: those given (REST paths carry them, and a
 * wrong one is the comment's not-found, as before), or else the comment's own, the comment being the reply's when
 * only `replyId` names it. A caller who may not see the comment gets the not-found of what they named.
 */
async function threadBase(ctx: RequestContext, place: ThreadPlace, replyId?: string) {
  const notFound = place.commentId || !replyId ? `Comment ${place.commentId} not found` : `Reply ${replyId} not found`;
  const visibleComment = async (commentId: string) => {
    const [comment] = await loadVisibleComments(ctx, [commentId]);
    if (!comment) throw new NotFoundError(notFound);
    return comment;
  };
  const commentId = await parentIdOf(place.commentId, {
    own: async () => (replyId ? (await replyByIdLoader(ctx).load(replyId))?.commentId : null),
    visible: visibleComment,
    notFound,
  });
  if (place.spaceId) return { spaceId: place.spaceId, changeRequestId: place.changeRequestId, commentId };
  const comment = await visibleComment(commentId);
  return { spaceId: comment.spaceId, changeRequestId: place.changeRequestId ?? comment.changeRequestId, commentId };
}

/** Edits (author), resolves or reopens, and adds or removes the viewer's reactions, in one transaction. */
export async function updateComment(ctx: RequestContext, place: ThreadPlace, input: unknown): Promise<Comment> {
  const { spaceId, changeRequestId, commentId } = await threadBase(ctx, place);
  const base = await commentableBase(ctx, spaceId, changeRequestId);
  const comment = await getComment(ctx, base, commentId);
  const data = parseInput(updateCommentSchema, input);
  if (data.body) requireAuthor(ctx, comment.postedById);
  const markdown = data.body ? await markdownOf(ctx, data.body) : undefined;
  const userId = requireViewer(ctx).userId;
  const now = ctx.clock.now();
  const updated = await ctx.prisma.$transaction(async (tx) => {
    if (markdown !== undefined) {
      await tx.comment.update({ where: { id: comment.id }, data: { markdown, editedAt: now } });
    }
    if (data.resolved !== undefined) await setResolved(tx, comment, data.resolved, userId, now);
    await changeReactions(tx, { targetId: comment.id, commentId: comment.id }, userId, data, now);
    return requireStill(await tx.comment.findUnique({ where: { id: comment.id } }), commentId);
  });
  threadLoader(ctx).clear(comment.id);
  return updated;
}

/** A message deleted by someone else while this write ran is gone: 404 rather than a half answer. */
function requireStill<Row>(row: Row | null, id: string): Row {
  if (!row) throw new NotFoundError(`Comment ${id} not found`);
  return row;
}

/** Deletes a thread with its replies and reactions (author or space admin); absent comments answer success. */
export async function deleteComment(ctx: RequestContext, place: ThreadPlace): Promise<void> {
  const { spaceId, changeRequestId, commentId } = await threadBase(ctx, place);
  const base = await commentBase(ctx, spaceId, changeRequestId);
  const comment = await getComment(ctx, base, commentId).catch((error: unknown) => {
    if (error instanceof NotFoundError) return null;
    throw error;
  });
  if (!comment) return;
  if (!(await messagePermissions(ctx, spaceId, comment.postedById)).delete) {
    throw new ForbiddenError("Only its author or a space admin can delete this comment");
  }
  await ctx.prisma.$transaction(async (tx) => {
    // Deleting an open comment and deleting a resolved one are told apart by the row itself, so a concurrent
    // resolve cannot make the counter move twice.
    const open = await tx.comment.deleteMany({ where: { id: comment.id, resolvedAt: null } });
    if (open.count === 1) await moveOpenCounter(tx, comment, -1);
    else await tx.comment.deleteMany({ where: { id: comment.id } });
  });
}

export const postReplySchema = z.strictObject({
  body: bodySchema.describe("The reply: markdown or a rich-text document"),
});

export async function postReply(ctx: RequestContext, place: ThreadPlace, input: unknown): Promise<CommentReply> {
  const { spaceId, changeRequestId, commentId } = await threadBase(ctx, place);
  const base = await commentableBase(ctx, spaceId, changeRequestId);
  const comment = await getComment(ctx, base, commentId);
  const markdown = await markdownOf(ctx, parseInput(postReplySchema, input).body);
  const reply = await ctx.prisma.commentReply.create({
    data: {
      id: newId("CommentReply"),
      commentId: comment.id,
      postedById: requireViewer(ctx).userId,
      markdown,
      postedAt: ctx.clock.now(),
    },
  });
  await announceCommentPosted(ctx, comment, reply);
  return reply;
}

const updateReplySchema = z.strictObject({ body: newBodySchema, ...reactionsSchema });
// Change-request replies resolve or reopen their thread too.
export const updateChangeRequestReplySchema = updateReplySchema.extend({
  resolved: resolvedSchema.describe("Change requests' comments only: true resolves the thread, false reopens it"),
});

export async function updateReply(
  ctx: RequestContext,
  place: ThreadPlace,
  replyId: string,
  input: unknown,
): Promise<CommentReply> {
  const { spaceId, changeRequestId, commentId } = await threadBase(ctx, place, replyId);
  const base = await commentableBase(ctx, spaceId, changeRequestId);
  const comment = await getComment(ctx, base, commentId);
  const reply = await getReply(ctx, comment, replyId);
  const data: z.infer<typeof updateChangeRequestReplySchema> = base.changeRequest
    ? parseInput(updateChangeRequestReplySchema, input)
    : parseInput(updateReplySchema, input);
  if (data.body) requireAuthor(ctx, reply.postedById);
  const markdown = data.body ? await markdownOf(ctx, data.body) : undefined;
  const userId = requireViewer(ctx).userId;
  const now = ctx.clock.now();
  const updated = await ctx.prisma.$transaction(async (tx) => {
    if (markdown !== undefined) {
      await tx.commentReply.update({ where: { id: reply.id }, data: { markdown, editedAt: now } });
    }
    if (data.resolved !== undefined) await setResolved(tx, comment, data.resolved, userId, now);
    await changeReactions(tx, { targetId: reply.id, commentId: comment.id }, userId, data, now);
    return requireStill(await tx.commentReply.findUnique({ where: { id: reply.id } }), replyId);
  });
  // The thread was read before the write; the answer shows it after.
  threadLoader(ctx).clear(comment.id);
  return updated;
}

/** Deletes a reply and its reactions (author or space admin); absent replies answer success. */
export async function deleteReply(ctx: RequestContext, place: ThreadPlace, replyId: string): Promise<void> {
  const { spaceId, changeRequestId, commentId } = await threadBase(ctx, place, replyId);
  const base = await commentBase(ctx, spaceId, changeRequestId);
  const comment = await getComment(ctx, base, commentId);
  const reply = (await threadLoader(ctx).load(comment.id)).replies.find((row) => row.id === replyId);
  if (!reply) return;
  if (!(await messagePermissions(ctx, spaceId, reply.postedById)).delete) {
    throw new ForbiddenError("Only its author or a space admin can delete this reply");
  }
  await ctx.prisma.$transaction([
    ctx.prisma.commentReaction.deleteMany({ where: { targetId: reply.id } }),
    ctx.prisma.commentReply.deleteMany({ where: { id: reply.id } }),
  ]);
}
