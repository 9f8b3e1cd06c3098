import { builder } from "../../graphql/builder.ts";
import { describeInputField } from "../../graphql/input-description.ts";
import { CommentRef, ReplyRef } from "./comment.graphql.ts";
import { documentBodySchema, markdownBodySchema } from "./comment.service.ts";
import {
  deleteComment,
  deleteReply,
  postComment,
  postCommentSchema,
  postReply,
  postReplySchema,
  tableCellSchema,
  updateChangeRequestReplySchema,
  updateComment,
  updateCommentSchema,
  updateReply,
} from "./comment-write.service.ts";

const BodyInput = builder.inputType("CommentBodyInput", {
  description: "A message's body: either markdown or a rich-text document, not both.",
  fields: (t) => ({
    markdown: t.string({ description: describeInputField(markdownBodySchema, "markdown") }),
    document: t.field({ type: "JSON", description: describeInputField(documentBodySchema, "document") }),
  }),
});

const TableCellInput = builder.inputType("CommentTableCellInput", {
  description: "A cell of a table of a page.",
  fields: (t) => ({
    record: t.string({ required: true, description: describeInputField(tableCellSchema, "record") }),
    definition: t.string({ required: true, description: describeInputField(tableCellSchema, "definition") }),
  }),
});

const PostCommentInput = builder.inputType("PostCommentInput", {
  description: "A new comment thread, on the whole content, a page, a block of a page or a table cell.",
  fields: (t) => ({
    body: t.field({ type: BodyInput, required: true, description: describeInputField(postCommentSchema, "body") }),
    page: t.id({ description: describeInputField(postCommentSchema, "page") }),
    node: t.string({ description: describeInputField(postCommentSchema, "node") }),
    tableCell: t.field({ type: TableCellInput, description: describeInputField(postCommentSchema, "tableCell") }),
  }),
});

const UpdateCommentInput = builder.inputType("UpdateCommentInput", {
  description: "Changes to a comment; those omitted stay.",
  fields: (t) => ({
    resolved: t.boolean({ description: describeInputField(updateCommentSchema, "resolved") }),
    body: t.field({ type: BodyInput, description: describeInputField(updateCommentSchema, "body") }),
    addedReactions: t.stringList({ description: describeInputField(updateCommentSchema, "addedReactions") }),
    removedReactions: t.stringList({ description: describeInputField(updateCommentSchema, "removedReactions") }),
  }),
});

const PostReplyInput = builder.inputType("PostCommentReplyInput", {
  description: "A new reply in a thread.",
  fields: (t) => ({
    body: t.field({ type: BodyInput, required: true, description: describeInputField(postReplySchema, "body") }),
  }),
});

const reply = (key: keyof typeof updateChangeRequestReplySchema.shape) =>
  describeInputField(updateChangeRequestReplySchema, key);

const UpdateReplyInput = builder.inputType("UpdateCommentReplyInput", {
  description: "Changes to a reply; those omitted stay.",
  fields: (t) => ({
    body: t.field({ type: BodyInput, description: reply("body") }),
    addedReactions: t.stringList({ description: reply("addedReactions") }),
    removedReactions: t.stringList({ description: reply("removedReactions") }),
    resolved: t.boolean({ description: reply("resolved") }),
  }),
});

const baseArgs = builder.args((t) => ({
  spaceId: t.id({ required: true, description: "The space." }),
  changeRequestId: t.string({
    description: "The change request (id or number) whose comments these are; omitted: the space's own comments.",
  }),
}));
const commentArgs = builder.args((t) => ({
  ...baseArgs,
  commentId: t.string({ required: true, description: "The comment thread." }),
}));
const replyArgs = builder.args((t) => ({
  ...commentArgs,
  commentReplyId: t.string({ required: true, description: "The reply." }),
}));

const commentRole = "Needs the comment role on the space.";

builder.mutationFields((t) => ({
  postComment: t.field({
    type: CommentRef,
    description: `Posts a comment thread (postCommentInSpace, postCommentInChangeRequest). ${commentRole}`,
    args: { ...baseArgs, input: t.arg({ type: PostCommentInput, required: true, description: "The comment." }) },
    resolve: (_root, args, ctx) => postComment(ctx, args.spaceId, args.changeRequestId, args.input),
  }),
  updateComment: t.field({
    type: CommentRef,
    description:
      "Edits the body (its author only), resolves or reopens the thread, and adds or removes the viewer's " +
      `reactions, all at once (updateCommentInSpace, updateCommentInChangeRequest). ${commentRole}`,
    args: { ...commentArgs, input: t.arg({ type: UpdateCommentInput, required: true, description: "The changes." }) },
    resolve: (_root, args, ctx) => updateComment(ctx, args.spaceId, args.changeRequestId, args.commentId, args.input),
  }),
  deleteComment: t.boolean({
    description:
      "Deletes a thread with its replies; true also when it did not exist (deleteCommentInSpace, " +
      "deleteCommentInChangeRequest). Its author or a space admin.",
    args: commentArgs,
    resolve: async (_root, args, ctx) => {
      await deleteComment(ctx, args.spaceId, args.changeRequestId, args.commentId);
      return true;
    },
  }),
  postCommentReply: t.field({
    type: ReplyRef,
    description: `Replies in a thread (postCommentReplyInSpace, postCommentReplyInChangeRequest). ${commentRole}`,
    args: { ...commentArgs, input: t.arg({ type: PostReplyInput, required: true, description: "The reply." }) },
    resolve: (_root, args, ctx) => postReply(ctx, args.spaceId, args.changeRequestId, args.commentId, args.input),
  }),
  updateCommentReply: t.field({
    type: ReplyRef,
    description:
      "Edits a reply's body (its author only) and adds or removes the viewer's reactions " +
      `(updateCommentReplyInSpace, updateCommentReplyInChangeRequest). ${commentRole}`,
    args: { ...replyArgs, input: t.arg({ type: UpdateReplyInput, required: true, description: "The changes." }) },
    resolve: (_root, args, ctx) =>
      updateReply(ctx, args.spaceId, args.changeRequestId, args.commentId, args.commentReplyId, args.input),
  }),
  deleteCommentReply: t.boolean({
    description:
      "Deletes a reply; true also when the reply did not exist, an error (NOT_FOUND) when its thread does not " +
      "(deleteCommentReplyInSpace, deleteCommentReplyInChangeRequest). Its author or a space admin.",
    args: replyArgs,
    resolve: async (_root, args, ctx) => {
      await deleteReply(ctx, args.spaceId, args.changeRequestId, args.commentId, args.commentReplyId);
      return true;
    },
  }),
}));
