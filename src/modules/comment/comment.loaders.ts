import type { Comment, CommentReaction, CommentReply } from "../../db/generated/client.ts";
import { byKeys, defineLoader } from "../../loaders.ts";

/** Comments by id, without access checks: services decide what the viewer may see. */
export const commentByIdLoader = defineLoader<string, Comment | null>("commentById", async (ctx, ids) => {
  const rows = await ctx.prisma.comment.findMany({ where: { id: { in: [...ids] } } });
  return byKeys(ids, rows, (row) => row.id);
});

/** Replies of each comment, oldest first: one statement for any number of threads. */
export const repliesLoader = defineLoader<string, CommentReply[]>("commentReplies", async (ctx, commentIds) => {
  const rows = await ctx.prisma.commentReply.findMany({
    where: { commentId: { in: [...commentIds] } },
    orderBy: [{ postedAt: "asc" }, { id: "asc" }],
  });
  return commentIds.map((id) => rows.filter((row) => row.commentId === id));
});

/** Reactions on each comment or reply (by its id), oldest first. */
export const reactionsLoader = defineLoader<string, CommentReaction[]>("commentReactions", async (ctx, targetIds) => {
  const rows = await ctx.prisma.commentReaction.findMany({
    where: { targetId: { in: [...targetIds] } },
    orderBy: [{ reactedAt: "asc" }, { userId: "asc" }],
  });
  return targetIds.map((id) => rows.filter((row) => row.targetId === id));
});
