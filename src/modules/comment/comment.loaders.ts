import type { Comment, CommentReaction, CommentReply } from "../../db/generated/client.ts";
import { byKeys, defineLoader } from "../../request/loaders.ts";

/** Comments by id, without access checks: services decide what the viewer may see. */
export const commentByIdLoader = defineLoader<string, Comment | null>("commentById", async (ctx, ids) => {
  const rows = await ctx.prisma.comment.findMany({ where: { id: { in: [...ids] } } });
  return byKeys(ids, rows, (row) => row.id);
});

/** Replies by id, without access checks: services decide what the viewer may see. */
export const replyByIdLoader = defineLoader<string, CommentReply | null>("commentReplyById", async (ctx, ids) => {
  const rows = await ctx.prisma.commentReply.findMany({ where: { id: { in: [...ids] } } });
  return byKeys(ids, rows, (row) => row.id);
});

export interface Thread {
  /** Oldest first. */
  replies: CommentReply[];
  /** On the comment and on its replies (by `targetId`), oldest first. */
  reactions: CommentReaction[];
}

/**
 * Replies and reactions of each thread, read together: everything a thread shows is there at once, so the users
 * they name are loaded in one batch (a nested read costs the same statements whatever the number of threads).
 */
export const threadLoader = defineLoader<string, Thread>("commentThread", async (ctx, commentIds) => {
  const where = { commentId: { in: [...commentIds] } };
  const [replies, reactions] = await Promise.all([
    ctx.prisma.commentReply.findMany({ where, orderBy: [{ postedAt: "asc" }, { id: "asc" }] }),
    ctx.prisma.commentReaction.findMany({ where, orderBy: [{ reactedAt: "asc" }, { userId: "asc" }] }),
  ]);
  return commentIds.map((id) => ({
    replies: replies.filter((row) => row.commentId === id),
    reactions: reactions.filter((row) => row.commentId === id),
  }));
});
