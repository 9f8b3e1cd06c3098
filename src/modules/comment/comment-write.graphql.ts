import { builder } from "../../graphql/builder.ts";
import { describeInputField } from "../../graphql/input-description.ts";
import { describeMutation, payloadType } from "../../graphql/payload.ts";
import { edgeOf } from "../../paging/pagination.ts";
import { CommentRef, CommentThreadEdgeRef, ReplyEdgeRef, ReplyRef } from "./comment.graphql.ts";
import { commentOrder, documentBodySchema, markdownBodySchema, replyOrder } from "./comment.service.ts";
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
  changeRequestId: t.id({
    description: "The change request (id or number) whose comments these are; omitted: the space's own comments.",
  }),
}));
/** `spaceId` optional here: the comment names its space and change request (a given one still has to match). */
const threadArgs = builder.args((t) => ({
  spaceId: t.id({
    description: "The space. Optional: the comment names it; when given and not the comment's space, NOT_FOUND.",
  }),
  changeRequestId: t.id({
    description:
      "The change request (id or number) whose comments these are; omitted: the space's own comments, or, " +
      "without `spaceId`, the comment's own change request.",
  }),
}));
const commentArgs = builder.args((t) => ({
  ...threadArgs,
  commentId: t.id({ required: true, description: "The comment thread." }),
}));
/** `commentId` optional too: the reply names its comment (a given one still has to match). */
const replyArgs = builder.args((t) => ({
  ...threadArgs,
  commentId: t.id({
    description: "The comment thread. Optional: the reply names it; when given and not the reply's, NOT_FOUND.",
  }),
  commentReplyId: t.id({ required: true, description: "The reply." }),
}));

const commentRole = "Needs the comment role on the space.";

const PostCommentPayloadRef = payloadType<{
  comment: typeof CommentRef.$inferType;
  commentEdge: typeof CommentThreadEdgeRef.$inferType;
}>("postComment", {
  comment: { type: CommentRef, description: "The new thread." },
  commentEdge: {
    type: CommentThreadEdgeRef,
    description: "The new thread's edge in the space's or change request's `commentThreads`.",
  },
});

const UpdateCommentPayloadRef = payloadType<{ comment: typeof CommentRef.$inferType }>("updateComment", {
  comment: { type: CommentRef, description: "The thread, changed." },
});

const DeleteCommentPayloadRef = payloadType<{ deletedId: string }>("deleteComment", {
  deletedId: { type: "ID", description: "The deleted thread's id (for Relay's `@deleteRecord`)." },
});

const PostCommentReplyPayloadRef = payloadType<{
  reply: typeof ReplyRef.$inferType;
  replyEdge: typeof ReplyEdgeRef.$inferType;
}>("postCommentReply", {
  reply: { type: ReplyRef, description: "The new reply." },
  replyEdge: { type: ReplyEdgeRef, description: "The new reply's edge in the thread's `replies`." },
});

const UpdateCommentReplyPayloadRef = payloadType<{ reply: typeof ReplyRef.$inferType }>("updateCommentReply", {
  reply: { type: ReplyRef, description: "The reply, changed." },
});

const DeleteCommentReplyPayloadRef = payloadType<{ deletedId: string }>("deleteCommentReply", {
  deletedId: { type: "ID", description: "The deleted reply's id (for Relay's `@deleteRecord`)." },
});

builder.mutationFields((t) => ({
  postComment: t.field({
    type: PostCommentPayloadRef,
    ...describeMutation(`Posts a comment thread (postCommentInSpace, postCommentInChangeRequest). ${commentRole}`, {
      NOT_FOUND: "no such space or change request for the caller",
      FORBIDDEN: "below the comment role",
      BAD_USER_INPUT: "invalid input",
    }),
    args: { ...baseArgs, input: t.arg({ type: PostCommentInput, required: true, description: "The comment." }) },
    resolve: async (_root, args, ctx) => {
      const comment = await postComment(ctx, args.spaceId, args.changeRequestId, args.input);
      return { comment, commentEdge: edgeOf(commentOrder, comment) };
    },
  }),
  updateComment: t.field({
    type: UpdateCommentPayloadRef,
    ...describeMutation(
      "Edits the body (its author only), resolves or reopens the thread, and adds or removes the viewer's " +
        `reactions, all at once (updateCommentInSpace, updateCommentInChangeRequest). ${commentRole}`,
      {
        NOT_FOUND: "no such space, change request or comment for the caller",
        FORBIDDEN: "below the comment role, or editing another author's body",
        BAD_USER_INPUT: "invalid input",
      },
    ),
    args: { ...commentArgs, input: t.arg({ type: UpdateCommentInput, required: true, description: "The changes." }) },
    resolve: async (_root, args, ctx) => ({
      comment: await updateComment(ctx, args, args.input),
    }),
  }),
  deleteComment: t.field({
    type: DeleteCommentPayloadRef,
    ...describeMutation(
      "Deletes a thread with its replies; succeeds also when it did not exist, given `spaceId` " +
        "(deleteCommentInSpace, deleteCommentInChangeRequest). Its author or a space admin.",
      {
        NOT_FOUND: "no such space or change request for the caller; without `spaceId`, no such comment",
        FORBIDDEN: "neither its author nor a space admin",
      },
    ),
    args: commentArgs,
    resolve: async (_root, args, ctx) => {
      await deleteComment(ctx, args);
      return { deletedId: args.commentId };
    },
  }),
  postCommentReply: t.field({
    type: PostCommentReplyPayloadRef,
    ...describeMutation(
      `Replies in a thread (postCommentReplyInSpace, postCommentReplyInChangeRequest). ${commentRole}`,
      {
        NOT_FOUND: "no such space, change request or comment for the caller",
        FORBIDDEN: "below the comment role",
        BAD_USER_INPUT: "invalid input",
      },
    ),
    args: { ...commentArgs, input: t.arg({ type: PostReplyInput, required: true, description: "The reply." }) },
    resolve: async (_root, args, ctx) => {
      const reply = await postReply(ctx, args, args.input);
      return { reply, replyEdge: edgeOf(replyOrder, reply) };
    },
  }),
  updateCommentReply: t.field({
    type: UpdateCommentReplyPayloadRef,
    ...describeMutation(
      "Edits a reply's body (its author only) and adds or removes the viewer's reactions " +
        `(updateCommentReplyInSpace, updateCommentReplyInChangeRequest). ${commentRole}`,
      {
        NOT_FOUND: "no such space, change request, comment or reply for the caller",
        FORBIDDEN: "below the comment role, or editing another author's body",
        BAD_USER_INPUT: "invalid input",
      },
    ),
    args: { ...replyArgs, input: t.arg({ type: UpdateReplyInput, required: true, description: "The changes." }) },
    resolve: async (_root, args, ctx) => ({
      reply: await updateReply(ctx, args, args.commentReplyId, args.input),
    }),
  }),
  deleteCommentReply: t.field({
    type: DeleteCommentReplyPayloadRef,
    ...describeMutation(
      "Deletes a reply; succeeds also when the reply did not exist, given `commentId`; an error (NOT_FOUND) when " +
        "its thread does not (deleteCommentReplyInSpace, deleteCommentReplyInChangeRequest). Its author or a " +
        "space admin.",
      {
        NOT_FOUND: "no such space, change request or comment for the caller; without `commentId`, no such reply",
        FORBIDDEN: "neither its author nor a space admin",
      },
    ),
    args: replyArgs,
    resolve: async (_root, args, ctx) => {
      await deleteReply(ctx, args, args.commentReplyId);
      return { deletedId: args.commentReplyId };
    },
  }),
}));
