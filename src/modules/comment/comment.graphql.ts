import type { Comment, CommentReply } from "../../db/generated/client.ts";
import { builder } from "../../graphql/builder.ts";
import { SortOrderEnum } from "../../graphql/enums.ts";
import { ChangeRequestRef } from "../change-request/change-request.graphql.ts";
import { PageFormatEnum } from "../content/content.graphql.ts";
import { MemberRef } from "../member/member.graphql.ts";
import { SpaceRef } from "../space/space.graphql.ts";
import { UserRef } from "../user/user.graphql.ts";
import { userByIdLoader } from "../user/user.service.ts";
import { commentByIdLoader } from "./comment.loaders.ts";
import {
  bodyIn,
  type CommentFilters,
  type CommentPermissions,
  commentBase,
  getComment,
  getReply,
  listCommenters,
  listComments,
  listReplies,
  loadVisibleComments,
  loadVisibleReplies,
  messagePermissions,
  type ReactionGroup,
  type Replier,
  reactionsOf,
  repliersOf,
  replyCount,
} from "./comment.service.ts";
import {
  deleteComment,
  deleteReply,
  postComment,
  postReply,
  updateComment,
  updateReply,
} from "./comment-write.service.ts";

type Context = Parameters<typeof userByIdLoader>[0];

/** Authors are deleted with their messages (cascade), so they are there. */
async function requiredUser(ctx: Context, userId: string) {
  const user = await userByIdLoader(ctx).load(userId);
  if (!user) throw new Error(`User ${userId} is missing`);
  return user;
}

const CommentBodyRef = builder.objectRef<{ markdown?: string; document?: unknown }>("CommentBody").implement({
  description: "A message's body in the format asked for: `markdown`, or a rich-text `document`.",
  fields: (t) => ({
    markdown: t.string({ nullable: true, resolve: (body) => body.markdown ?? null }),
    document: t.field({ type: "JSON", nullable: true, resolve: (body) => body.document ?? null }),
  }),
});

const ReactionUserRef = builder.objectRef<ReactionGroup["users"][number]>("CommentReactionUser").implement({
  fields: (t) => ({
    user: t.field({ type: UserRef, resolve: (row, _args, ctx) => requiredUser(ctx, row.userId) }),
    reactedAt: t.expose("reactedAt", { type: "DateTime" }),
  }),
});

const ReactionRef = builder.objectRef<ReactionGroup>("CommentReaction").implement({
  description: "One emoji on a message, with everyone who reacted with it.",
  fields: (t) => ({
    emoji: t.exposeString("emoji"),
    count: t.exposeInt("count"),
    users: t.field({ type: [ReactionUserRef], resolve: (group) => group.users }),
  }),
});

const ReplierRef = builder.objectRef<Replier>("CommentReplier").implement({
  fields: (t) => ({
    user: t.field({ type: UserRef, resolve: (row, _args, ctx) => requiredUser(ctx, row.userId) }),
    count: t.exposeInt("count"),
    updatedAt: t.expose("updatedAt", { type: "DateTime", description: "Their latest reply." }),
  }),
});

const PermissionsRef = builder.objectRef<CommentPermissions>("CommentPermissions").implement({
  description: "What the viewer may do with the message.",
  fields: (t) => ({
    view: t.exposeBoolean("view"),
    edit: t.exposeBoolean("edit"),
    reply: t.exposeBoolean("reply", { description: "React and reply." }),
    delete: t.exposeBoolean("delete"),
  }),
});

const UrlsRef = builder.objectRef<{ location: string }>("CommentUrls").implement({
  fields: (t) => ({ location: t.exposeString("location") }),
});

const commentLocation = (ctx: Context, comment: Comment) =>
  `${ctx.config.publicUrl}/v1/spaces/${comment.spaceId}${comment.changeRequestId ? `/change-requests/${comment.changeRequestId}` : ""}/comments/${comment.id}`;

/** Replies are deleted with their comment (cascade), so it is there. */
async function threadOf(ctx: Context, reply: CommentReply) {
  const comment = await commentByIdLoader(ctx).load(reply.commentId);
  if (!comment) throw new Error(`Comment ${reply.commentId} is missing`);
  return comment;
}

const ReplyRef = builder.node(builder.objectRef<CommentReply>("CommentReply"), {
  description: "A reply in a comment thread.",
  id: { resolve: (row) => row.id },
  loadMany: (ids, ctx) => loadVisibleReplies(ctx, ids),
  fields: (t) => ({
    postedBy: t.field({ type: UserRef, resolve: (reply, _args, ctx) => requiredUser(ctx, reply.postedById) }),
    postedAt: t.expose("postedAt", { type: "DateTime" }),
    editedAt: t.expose("editedAt", { type: "DateTime", nullable: true }),
    reactions: t.field({
      type: [ReactionRef],
      resolve: (reply, _args, ctx) => reactionsOf(ctx, { commentId: reply.commentId, targetId: reply.id }),
    }),
    body: t.field({
      type: CommentBodyRef,
      args: { format: t.arg({ type: PageFormatEnum, defaultValue: "document" }) },
      resolve: (reply, args) => bodyIn(reply.markdown, args.format),
    }),
    urls: t.field({
      type: UrlsRef,
      resolve: async (reply, _args, ctx) => ({
        location: `${commentLocation(ctx, await threadOf(ctx, reply))}/replies/${reply.id}`,
      }),
    }),
    permissions: t.field({
      type: PermissionsRef,
      resolve: async (reply, _args, ctx) =>
        messagePermissions(ctx, (await threadOf(ctx, reply)).spaceId, reply.postedById),
    }),
  }),
});

const CommentTargetRef = builder.objectRef<Comment>("CommentTarget").implement({
  description: "What the comment is about, in the revision the commenter saw.",
  fields: (t) => ({
    space: t.exposeString("spaceId"),
    revision: t.exposeString("revisionId"),
    changeRequest: t.exposeString("changeRequestId", { nullable: true }),
    page: t.field({
      type: builder.objectRef<{ id: string }>("CommentTargetPage").implement({
        fields: (p) => ({ id: p.exposeString("id") }),
      }),
      nullable: true,
      resolve: (comment) => (comment.pageId ? { id: comment.pageId } : null),
    }),
    node: t.field({
      type: builder.objectRef<{ id: string }>("CommentTargetNode").implement({
        fields: (n) => ({ id: n.exposeString("id") }),
      }),
      nullable: true,
      resolve: (comment) => (comment.nodeId ? { id: comment.nodeId } : null),
    }),
    tableCell: t.field({
      type: builder.objectRef<{ record: string; definition: string }>("CommentTargetTableCell").implement({
        fields: (c) => ({ record: c.exposeString("record"), definition: c.exposeString("definition") }),
      }),
      nullable: true,
      resolve: (comment) =>
        comment.tableCellRecord && comment.tableCellDefinition
          ? { record: comment.tableCellRecord, definition: comment.tableCellDefinition }
          : null,
    }),
  }),
});

const CommentStatusEnum = builder.enumType("CommentStatus", { values: ["open", "resolved"] as const });
const CommentStatusFilterEnum = builder.enumType("CommentStatusFilter", {
  values: ["all", "open", "resolved"] as const,
});

const CommentRef = builder.node(builder.objectRef<Comment>("Comment"), {
  description: "A comment thread on a space or a change request.",
  id: { resolve: (row) => row.id },
  loadMany: (ids, ctx) => loadVisibleComments(ctx, ids),
  fields: (t) => ({
    postedBy: t.field({ type: UserRef, resolve: (comment, _args, ctx) => requiredUser(ctx, comment.postedById) }),
    postedAt: t.expose("postedAt", { type: "DateTime" }),
    editedAt: t.expose("editedAt", { type: "DateTime", nullable: true }),
    status: t.field({
      type: CommentStatusEnum,
      resolve: (comment) => (comment.resolvedAt ? "resolved" : "open"),
    }),
    resolvedAt: t.expose("resolvedAt", { type: "DateTime", nullable: true }),
    resolvedBy: t.field({
      type: UserRef,
      nullable: true,
      resolve: (comment, _args, ctx) => (comment.resolvedById ? userByIdLoader(ctx).load(comment.resolvedById) : null),
    }),
    reactions: t.field({
      type: [ReactionRef],
      resolve: (comment, _args, ctx) => reactionsOf(ctx, { commentId: comment.id, targetId: comment.id }),
    }),
    replyCount: t.int({
      description: "Replies in the thread.",
      resolve: (comment, _args, ctx) => replyCount(ctx, comment),
    }),
    repliers: t.field({ type: [ReplierRef], resolve: (comment, _args, ctx) => repliersOf(ctx, comment) }),
    replies: t.connection({
      type: ReplyRef,
      description: "listCommentRepliesInSpace / listCommentRepliesInChangeRequest: oldest first.",
      resolve: (comment, args, ctx) => listReplies(ctx, comment, args),
    }),
    reply: t.field({
      type: ReplyRef,
      description: "getCommentReplyInSpace / getCommentReplyInChangeRequest",
      args: { id: t.arg.string({ required: true }) },
      resolve: (comment, args, ctx) => getReply(ctx, comment, args.id),
    }),
    body: t.field({
      type: CommentBodyRef,
      args: { format: t.arg({ type: PageFormatEnum, defaultValue: "document" }) },
      resolve: (comment, args) => bodyIn(comment.markdown, args.format),
    }),
    target: t.field({ type: CommentTargetRef, resolve: (comment) => comment }),
    urls: t.field({ type: UrlsRef, resolve: (comment, _args, ctx) => ({ location: commentLocation(ctx, comment) }) }),
    permissions: t.field({
      type: PermissionsRef,
      resolve: (comment, _args, ctx) => messagePermissions(ctx, comment.spaceId, comment.postedById),
    }),
  }),
});

const listArgs = builder.args((t) => ({
  status: t.field({ type: CommentStatusFilterEnum, description: "Default: all." }),
  order: t.field({ type: SortOrderEnum, description: "By posting time; default desc." }),
  targetPage: t.string({ description: "Comments on this page id only." }),
  authors: t.stringList({ description: "Comments posted by these user ids only." }),
}));

type ListArgs = { [Key in keyof CommentFilters]?: CommentFilters[Key] };
const filtersOf = (args: ListArgs): CommentFilters => ({
  status: args.status,
  order: args.order,
  targetPage: args.targetPage,
  authors: args.authors,
});

builder.objectFields(SpaceRef, (t) => ({
  commentThreads: t.connection({
    type: CommentRef,
    description: "listCommentsInSpace: the space's own comments (not those of its change requests).",
    args: listArgs,
    resolve: (space, args, ctx) => listComments(ctx, { space, changeRequest: null }, filtersOf(args), args),
  }),
  comment: t.field({
    type: CommentRef,
    description: "getCommentInSpace",
    args: { id: t.arg.string({ required: true }) },
    resolve: (space, args, ctx) => getComment(ctx, { space, changeRequest: null }, args.id),
  }),
  commenters: t.connection({
    type: MemberRef,
    description: "listCommentersInSpace: members who commented or replied on the space.",
    resolve: (space, args, ctx) => listCommenters(ctx, { space, changeRequest: null }, args),
  }),
}));

builder.objectFields(ChangeRequestRef, (t) => ({
  commentThreads: t.connection({
    type: CommentRef,
    description: "listCommentsInChangeRequest",
    args: listArgs,
    resolve: async (changeRequest, args, ctx) =>
      listComments(ctx, await commentBase(ctx, changeRequest.spaceId, changeRequest.id), filtersOf(args), args),
  }),
  comment: t.field({
    type: CommentRef,
    description: "getCommentInChangeRequest",
    args: { id: t.arg.string({ required: true }) },
    resolve: async (changeRequest, args, ctx) =>
      getComment(ctx, await commentBase(ctx, changeRequest.spaceId, changeRequest.id), args.id),
  }),
  commenters: t.connection({
    type: MemberRef,
    description: "listCommentersInChangeRequest: members who commented or replied on the change request.",
    resolve: async (changeRequest, args, ctx) =>
      listCommenters(ctx, await commentBase(ctx, changeRequest.spaceId, changeRequest.id), args),
  }),
}));

const BodyInput = builder.inputType("CommentBodyInput", {
  description: "Either markdown or a rich-text document.",
  fields: (t) => ({ markdown: t.string(), document: t.field({ type: "JSON" }) }),
});

const TableCellInput = builder.inputType("CommentTableCellInput", {
  fields: (t) => ({ record: t.string({ required: true }), definition: t.string({ required: true }) }),
});

const PostCommentInput = builder.inputType("PostCommentInput", {
  fields: (t) => ({
    body: t.field({ type: BodyInput, required: true }),
    page: t.string({ description: "A page of the revision the commenter sees." }),
    node: t.string({ description: "A node of that page." }),
    tableCell: t.field({ type: TableCellInput }),
  }),
});

const UpdateCommentInput = builder.inputType("UpdateCommentInput", {
  fields: (t) => ({
    resolved: t.boolean({ description: "Resolve (true) or reopen (false) the thread." }),
    body: t.field({ type: BodyInput, description: "Authors only." }),
    addedReactions: t.stringList({ description: "Emojis the viewer reacts with." }),
    removedReactions: t.stringList({ description: "Emojis the viewer takes back." }),
  }),
});

const PostReplyInput = builder.inputType("PostCommentReplyInput", {
  fields: (t) => ({ body: t.field({ type: BodyInput, required: true }) }),
});

const UpdateReplyInput = builder.inputType("UpdateCommentReplyInput", {
  fields: (t) => ({
    body: t.field({ type: BodyInput, description: "Authors only." }),
    addedReactions: t.stringList(),
    removedReactions: t.stringList(),
    resolved: t.boolean({ description: "Change requests only: resolves or reopens the thread." }),
  }),
});

builder.mutationFields((t) => {
  const baseArgs = {
    spaceId: t.arg.id({ required: true }),
    changeRequestId: t.arg.string({ description: "Omitted: the space's own comments." }),
  };
  const commentArgs = { ...baseArgs, commentId: t.arg.string({ required: true }) };
  const replyArgs = { ...commentArgs, commentReplyId: t.arg.string({ required: true }) };
  return {
    postComment: t.field({
      type: CommentRef,
      description: "postCommentInSpace / postCommentInChangeRequest",
      args: { ...baseArgs, input: t.arg({ type: PostCommentInput, required: true }) },
      resolve: (_root, args, ctx) => postComment(ctx, String(args.spaceId), args.changeRequestId, args.input),
    }),
    updateComment: t.field({
      type: CommentRef,
      description: "updateCommentInSpace / updateCommentInChangeRequest",
      args: { ...commentArgs, input: t.arg({ type: UpdateCommentInput, required: true }) },
      resolve: (_root, args, ctx) =>
        updateComment(ctx, String(args.spaceId), args.changeRequestId, args.commentId, args.input),
    }),
    deleteComment: t.boolean({
      description: "deleteCommentInSpace / deleteCommentInChangeRequest",
      args: commentArgs,
      resolve: async (_root, args, ctx) => {
        await deleteComment(ctx, String(args.spaceId), args.changeRequestId, args.commentId);
        return true;
      },
    }),
    postCommentReply: t.field({
      type: ReplyRef,
      description: "postCommentReplyInSpace / postCommentReplyInChangeRequest",
      args: { ...commentArgs, input: t.arg({ type: PostReplyInput, required: true }) },
      resolve: (_root, args, ctx) =>
        postReply(ctx, String(args.spaceId), args.changeRequestId, args.commentId, args.input),
    }),
    updateCommentReply: t.field({
      type: ReplyRef,
      description: "updateCommentReplyInSpace / updateCommentReplyInChangeRequest",
      args: { ...replyArgs, input: t.arg({ type: UpdateReplyInput, required: true }) },
      resolve: (_root, args, ctx) =>
        updateReply(ctx, String(args.spaceId), args.changeRequestId, args.commentId, args.commentReplyId, args.input),
    }),
    deleteCommentReply: t.boolean({
      description: "deleteCommentReplyInSpace / deleteCommentReplyInChangeRequest",
      args: replyArgs,
      resolve: async (_root, args, ctx) => {
        await deleteReply(ctx, String(args.spaceId), args.changeRequestId, args.commentId, args.commentReplyId);
        return true;
      },
    }),
  };
});
