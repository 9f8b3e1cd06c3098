import { z } from "zod";
import { hasRole } from "../../auth/roles.ts";
import type { ChangeRequest, Comment, CommentReply, Member, Prisma, Space } from "../../db/generated/client.ts";
import { InvalidInputError, NotFoundError, nullWhereRefused } from "../../lib/errors.ts";
import { documentSchema, parseInput } from "../../lib/validation.ts";
import {
  containsSchema,
  dateBoundSchema,
  type FilterRules,
  filterWhere,
  type ListArgs,
  type ListOrder,
  parseFilter,
  sortFor,
} from "../../paging/list-order.ts";
import { pageFromRows } from "../../paging/memory-pagination.ts";
import { isFirstPage, type PageArgs, paginate, type SortKey } from "../../paging/pagination.ts";
import type { RequestContext } from "../../request/context.ts";
import { getChangeRequest } from "../change-request/change-request.public.ts";
import { type Document, documentToMarkdown } from "../content/content.public.ts";
import { getSpace, spaceByIdLoader, spaceRole } from "../space/space.public.ts";
import { commentByIdLoader, threadLoader } from "./comment.loaders.ts";

/** Where comments live: a space, or one of its change requests. */
export interface CommentBase {
  space: Space;
  changeRequest: ChangeRequest | null;
}

/** The base of `/spaces/{spaceId}[/change-requests/{changeRequestId}]`, readable by the viewer; 404 otherwise. */
export async function commentBase(
  ctx: RequestContext,
  spaceId: string,
  changeRequestId: string | null | undefined,
): Promise<CommentBase> {
  const space = await getSpace(ctx, spaceId);
  const changeRequest = changeRequestId ? await getChangeRequest(ctx, spaceId, changeRequestId) : null;
  return { space, changeRequest };
}

/** Comments of one base: a space's own comments are those outside change requests. */
function baseWhere(base: CommentBase): Prisma.CommentWhereInput {
  return { spaceId: base.space.id, changeRequestId: base.changeRequest?.id ?? null };
}

export const markdownBodySchema = z.strictObject({
  markdown: z.string().trim().min(1).max(100_000).describe("The body as markdown"),
});
export const documentBodySchema = z.strictObject({
  document: documentSchema.describe("The body as a rich-text document (`{ object: document, nodes }`)"),
});
export const bodySchema = z.union([markdownBodySchema, documentBodySchema], {
  error: "body must be { markdown } or { document }",
});

/**
 * Bodies are stored as markdown; documents go through the same converter as pages. A body is converted into its
 * document once here: what takes more than the conversion's time budget is refused (422) rather than stored, and
 * the readers after the writer find the document in the conversion cache.
 */
export async function markdownOf(ctx: RequestContext, body: z.infer<typeof bodySchema>): Promise<string> {
  const markdown = (
    "markdown" in body ? body.markdown : documentToMarkdown(body.document as unknown as Document)
  ).trim();
  if (!markdown) throw new InvalidInputError("Invalid input: body: the comment is empty");
  await ctx.budget.convertUncharged("document", markdown);
  return markdown;
}

export type BodyFormat = "markdown" | "document";

/** A stored body in the format asked for; documents are converted once per distinct body (src/workers/heavy-work.ts). */
export async function bodyIn(ctx: RequestContext, markdown: string, format: BodyFormat | null | undefined) {
  return format === "markdown" ? { markdown } : { document: await ctx.budget.convertUncharged("document", markdown) };
}

export const commentFiltersSchema = z.strictObject({
  status: z.enum(["all", "open", "resolved"]).nullish().describe("Threads in this state; default all"),
  order: z.enum(["asc", "desc"]).nullish().describe("By posting time; default desc (newest first)"),
  targetPage: z.string().min(1).nullish().describe("Only comments on this page id"),
  authors: z.array(z.string().min(1)).max(100).nullish().describe("Only comments posted by these user ids"),
});

export type CommentFilters = z.input<typeof commentFiltersSchema>;

/** Comment threads' default order: the latest posted first. */
export const commentOrder: SortKey<Comment>[] = [
  { field: "postedAt", direction: "desc" },
  { field: "id", direction: "desc" },
];

/** The sorts of `commentThreads(orderBy:)`. */
export const commentListOrder: ListOrder<Comment> = { fields: { POSTED_AT: "postedAt" }, tiebreak: "id" };

export const commentFilterSchema = z.strictObject({
  textContains: containsSchema.nullish().describe("Only comments whose text contains this, ignoring case"),
  postedAfter: dateBoundSchema.nullish().describe("Only comments posted after this time (ISO 8601)"),
  postedBefore: dateBoundSchema.nullish().describe("Only comments posted before this time (ISO 8601)"),
});

const commentFilterRules: FilterRules<Comment, z.infer<typeof commentFilterSchema>> = {
  textContains: { contains: "markdown" },
  postedAfter: { after: "postedAt" },
  postedBefore: { before: "postedAt" },
};

/**
 * A base's comments, filtered by status, target page and authors, by posting time (newest first by default;
 * `orderBy` wins over `order`).
 */
export async function listComments(
  ctx: RequestContext,
  base: CommentBase,
  filters: CommentFilters,
  page: PageArgs,
  list: ListArgs = {},
) {
  const { status, order, targetPage, authors } = parseInput(commentFiltersSchema, filters);
  const filter = parseFilter(commentFilterSchema, list.filter);
  const where: Prisma.CommentWhereInput = { ...baseWhere(base), AND: filterWhere(commentFilterRules, filter) };
  if (status === "open") where.resolvedAt = null;
  if (status === "resolved") where.resolvedAt = { not: null };
  if (targetPage) where.pageId = targetPage;
  if (authors?.length) where.postedById = { in: authors };
  const sort = sortFor(
    commentListOrder,
    list.orderBy,
    order
      ? [
          { field: "postedAt", direction: order },
          { field: "id", direction: order },
        ]
      : commentOrder,
  );
  const comments = await paginate<Comment>(page, { sort, where, model: ctx.prisma.comment });
  // Replies find their thread through this loader.
  for (const { node } of comments.edges) commentByIdLoader(ctx).prime(node.id, node);
  return comments;
}

export async function getComment(ctx: RequestContext, base: CommentBase, commentId: string): Promise<Comment> {
  const comment = await commentByIdLoader(ctx).load(commentId);
  if (!comment || comment.spaceId !== base.space.id || comment.changeRequestId !== (base.changeRequest?.id ?? null)) {
    throw new NotFoundError(`Comment ${commentId} not found`);
  }
  return comment;
}

/** A thread's replies, oldest first. */
export const replyOrder: SortKey<CommentReply>[] = [
  { field: "postedAt", direction: "asc" },
  { field: "id", direction: "asc" },
];

/** A thread's replies, oldest first; first pages of many threads come from one batched statement. */
export async function listReplies(ctx: RequestContext, comment: Comment, page: PageArgs) {
  if (isFirstPage(page)) return pageFromRows(page, replyOrder, (await threadLoader(ctx).load(comment.id)).replies);
  return paginate<CommentReply>(page, {
    sort: replyOrder,
    where: { commentId: comment.id },
    model: ctx.prisma.commentReply,
  });
}

export async function getReply(ctx: RequestContext, comment: Comment, replyId: string): Promise<CommentReply> {
  const reply = (await threadLoader(ctx).load(comment.id)).replies.find((row) => row.id === replyId);
  if (!reply) throw new NotFoundError(`Reply ${replyId} not found`);
  return reply;
}

export async function replyCount(ctx: RequestContext, comment: Comment): Promise<number> {
  return (await threadLoader(ctx).load(comment.id)).replies.length;
}

export interface Replier {
  userId: string;
  count: number;
  updatedAt: Date;
}

/** Who replied to a thread: one entry per user with their number of replies and their latest reply's time. */
export async function repliersOf(ctx: RequestContext, comment: Comment): Promise<Replier[]> {
  const repliers = new Map<string, Replier>();
  for (const reply of (await threadLoader(ctx).load(comment.id)).replies) {
    const replier = repliers.get(reply.postedById);
    if (replier) {
      replier.count += 1;
      replier.updatedAt = reply.postedAt;
    } else {
      repliers.set(reply.postedById, { userId: reply.postedById, count: 1, updatedAt: reply.postedAt });
    }
  }
  return [...repliers.values()];
}

export interface ReactionGroup {
  emoji: string;
  count: number;
  users: { userId: string; reactedAt: Date }[];
}

/** Reactions on a comment or one of its replies, grouped by emoji in the order they first appeared. */
export async function reactionsOf(
  ctx: RequestContext,
  message: { commentId: string; targetId: string },
): Promise<ReactionGroup[]> {
  const groups = new Map<string, ReactionGroup>();
  const { reactions } = await threadLoader(ctx).load(message.commentId);
  for (const reaction of reactions.filter((row) => row.targetId === message.targetId)) {
    const group = groups.get(reaction.emoji) ?? { emoji: reaction.emoji, count: 0, users: [] };
    group.count += 1;
    group.users.push({ userId: reaction.userId, reactedAt: reaction.reactedAt });
    groups.set(reaction.emoji, group);
  }
  return [...groups.values()];
}

/** Members of the space's organization who posted a comment or a reply in the base. */
export function listCommenters(ctx: RequestContext, base: CommentBase, page: PageArgs) {
  const thread = baseWhere(base);
  return paginate<Member>(page, {
    model: ctx.prisma.member,
    where: {
      organizationId: base.space.organizationId,
      user: {
        OR: [{ comments: { some: thread } }, { commentReplies: { some: { comment: thread } } }],
      },
    },
    sort: [{ field: "userId", direction: "asc" }],
  });
}

export interface CommentPermissions {
  view: boolean;
  edit: boolean;
  reply: boolean;
  delete: boolean;
}

/** Authors edit and delete their own messages while they may comment; space admins delete any. */
export async function messagePermissions(
  ctx: RequestContext,
  spaceId: string,
  postedById: string,
): Promise<CommentPermissions> {
  const space = await spaceByIdLoader(ctx).load(spaceId);
  const role = space ? await spaceRole(ctx, space) : null;
  const canComment = hasRole(role, "comment");
  const ownsIt = ctx.viewer?.userId === postedById && canComment;
  return { view: hasRole(role, "read"), edit: ownsIt, reply: canComment, delete: ownsIt || hasRole(role, "admin") };
}

/** Comments for `node`/`nodes`: where `GET .../comments/{commentId}` of their space or change request answers. */
export async function loadVisibleComments(ctx: RequestContext, ids: readonly string[]) {
  return nullWhereRefused(ids, await commentByIdLoader(ctx).loadMany(ids), async (comment) =>
    getComment(ctx, await commentBase(ctx, comment.spaceId, comment.changeRequestId), comment.id),
  );
}

/** Replies for `node`/`nodes`: where their comment is visible (as `GET .../replies/{commentReplyId}`). */
export async function loadVisibleReplies(ctx: RequestContext, ids: readonly string[]) {
  const rows = await ctx.prisma.commentReply.findMany({
    where: { id: { in: [...ids] } },
    select: { id: true, commentId: true },
  });
  return nullWhereRefused(ids, rows, async (row) => {
    const [comment] = await loadVisibleComments(ctx, [row.commentId]);
    return comment ? getReply(ctx, comment, row.id) : null;
  });
}
