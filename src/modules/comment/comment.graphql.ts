import type { Comment, CommentReply } from "../../db/generated/client.ts";
import { builder } from "../../graphql/builder.ts";
import { publicEnum } from "../../graphql/enums.ts";
import { describeInputField } from "../../graphql/input-description.ts";
import { dateBoundFields, orderByDescription, orderInput } from "../../graphql/list-order.ts";
import { idColumn } from "../../graphql/node-ids.ts";
import { viewerCanFields } from "../../graphql/viewer-can.ts";
import { ChangeRequestRef, CommentPostedRef, getChangeRequest } from "../change-request/change-request.public.ts";
import { PageFormatEnum, RevisionRef, revisionOf } from "../content/content.public.ts";
import { MemberRef } from "../member/member.public.ts";
import { parentSpace, SpaceRef } from "../space/space.public.ts";
import { UserRef, userByIdLoader } from "../user/user.public.ts";
import { commentByIdLoader, replyByIdLoader } from "./comment.loaders.ts";
import {
  bodyIn,
  type CommentFilters,
  commentBase,
  commentFilterSchema,
  commentFiltersSchema,
  commentListOrder,
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

// Declared before their fields: a comment's reply and a reply's comment refer to each other.
export const CommentRef = builder.objectRef<Comment>("Comment");
export const ReplyRef = builder.objectRef<CommentReply>("CommentReply");

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
    markdown: t.string({
      nullable: true,
      description: "The body as markdown; null unless markdown was asked for.",
      resolve: (body) => body.markdown ?? null,
    }),
    document: t.field({
      type: "JSON",
      nullable: true,
      description: "The body as a rich-text document; null unless document was asked for.",
      resolve: (body) => body.document ?? null,
    }),
  }),
});

const ReactionUserRef = builder.objectRef<ReactionGroup["users"][number]>("CommentReactionUser").implement({
  description: "A user who reacted with an emoji.",
  fields: (t) => ({
    user: t.field({
      type: UserRef,
      description: "Who reacted.",
      resolve: (row, _args, ctx) => requiredUser(ctx, row.userId),
    }),
    reactedAt: t.expose("reactedAt", { type: "DateTime", description: "When they reacted." }),
  }),
});

const ReactionRef = builder.objectRef<ReactionGroup>("CommentReaction").implement({
  description: "One emoji on a message, with everyone who reacted with it.",
  fields: (t) => ({
    emoji: t.exposeString("emoji", { description: "The emoji." }),
    count: t.exposeInt("count", { description: "How many users reacted with it." }),
    users: t.field({
      type: [ReactionUserRef],
      description: "Who reacted with it, and when.",
      resolve: (group) => group.users,
    }),
  }),
});

const ReplierRef = builder.objectRef<Replier>("CommentReplier").implement({
  description: "A user who replied in a thread.",
  fields: (t) => ({
    user: t.field({
      type: UserRef,
      description: "Who replied.",
      resolve: (row, _args, ctx) => requiredUser(ctx, row.userId),
    }),
    count: t.exposeInt("count", { description: "How many replies they posted in the thread." }),
    updatedAt: t.expose("updatedAt", { type: "DateTime", description: "Their latest reply." }),
  }),
});

/** The viewer's permissions on a comment or a reply as its own fields. */
const messageViewerCan = {
  viewerCanView: ["view", "Whether the viewer may read it: read role on the space."],
  viewerCanReply: ["reply", "Whether the viewer may react and reply: comment role on the space."],
  viewerCanUpdate: ["edit", "Whether the viewer may edit its body: its author, while they have the comment role."],
  viewerCanDelete: ["delete", "Whether the viewer may delete it: its author (comment role), or a space admin."],
} as const;

const UrlsRef = builder.objectRef<{ location: string }>("CommentURLs").implement({
  description: "Addresses of a comment or a reply.",
  fields: (t) => ({
    location: t.expose("location", { type: "URL", description: "The message on this server's API." }),
  }),
});

const formatArg = builder.args((t) => ({
  format: t.field({
    type: PageFormatEnum,
    defaultValue: "document",
    description: "The format of the body (default document).",
  }),
}));

const commentLocation = (ctx: Context, comment: Comment) =>
  `${ctx.config.publicUrl}/v1/spaces/${comment.spaceId}${comment.changeRequestId ? `/change-requests/${comment.changeRequestId}` : ""}/comments/${comment.id}`;

/** Replies are deleted with their comment (cascade), so it is there. */
async function threadOf(ctx: Context, reply: CommentReply) {
  const comment = await commentByIdLoader(ctx).load(reply.commentId);
  if (!comment) throw new Error(`Comment ${reply.commentId} is missing`);
  return comment;
}

builder.node(ReplyRef, {
  extensions: { restObjectName: "comment-reply" },
  description: "A reply in a comment thread. Readable by whoever may read the space.",
  id: idColumn,
  loadMany: (ids, ctx) => loadVisibleReplies(ctx, ids),
  fields: (t) => ({
    postedBy: t.field({
      type: UserRef,
      description: "Its author.",
      resolve: (reply, _args, ctx) => requiredUser(ctx, reply.postedById),
    }),
    commentId: t.exposeID("commentId", { description: "Id of the thread's comment (the id of `comment`)." }),
    comment: t.field({
      type: CommentRef,
      description: "The comment whose thread it answers.",
      resolve: (reply, _args, ctx) => threadOf(ctx, reply),
    }),
    postedAt: t.expose("postedAt", { type: "DateTime", description: "When it was posted." }),
    editedAt: t.expose("editedAt", {
      type: "DateTime",
      nullable: true,
      description: "When its body was last edited; null when never.",
    }),
    reactions: t.field({
      type: [ReactionRef],
      description: "Its reactions, one item per emoji.",
      resolve: (reply, _args, ctx) => reactionsOf(ctx, { commentId: reply.commentId, targetId: reply.id }),
    }),
    body: t.field({
      type: CommentBodyRef,
      description: "Its body, in the format asked for.",
      args: formatArg,
      resolve: (reply, args, ctx) => bodyIn(ctx, reply.markdown, args.format),
    }),
    urls: t.field({
      type: UrlsRef,
      description: "Where the reply is.",
      resolve: async (reply, _args, ctx) => ({
        location: `${commentLocation(ctx, await threadOf(ctx, reply))}/replies/${reply.id}`,
      }),
    }),
    ...viewerCanFields(
      t,
      async (reply, ctx) => messagePermissions(ctx, (await threadOf(ctx, reply)).spaceId, reply.postedById),
      messageViewerCan,
    ),
  }),
});

/** Where a comment is, with the ids as raw ids: on the comment and on its target alike. */
function commentPlaceFields(t: PothosSchemaTypes.ObjectFieldBuilder<typeof builder.$inferSchemaTypes, Comment>) {
  return {
    spaceId: t.exposeID("spaceId", { description: "Id of the space (the id of `space`)." }),
    space: t.field({
      type: SpaceRef,
      description: "The space the comment is in.",
      resolve: (comment, _args, ctx) => parentSpace(ctx, comment.spaceId),
    }),
    changeRequestId: t.exposeID("changeRequestId", {
      nullable: true,
      description: "Id of the change request (the id of `changeRequest`); null for the space's own comments.",
    }),
    changeRequest: t.field({
      type: ChangeRequestRef,
      nullable: true,
      description: "The change request it is on; null for the space's own comments.",
      resolve: (comment, _args, ctx) =>
        comment.changeRequestId ? getChangeRequest(ctx, comment.spaceId, comment.changeRequestId) : null,
    }),
  };
}

const CommentTargetRef = builder.objectRef<Comment>("CommentTarget").implement({
  description: "What the comment is about, in the revision the commenter saw.",
  fields: (t) => ({
    ...commentPlaceFields(t),
    revisionId: t.exposeID("revisionId", {
      description: "Id of the revision the commenter saw (the id of `revision`).",
    }),
    revision: t.field({
      type: RevisionRef,
      description: "The revision the commenter saw.",
      resolve: (comment, _args, ctx) => revisionOf(ctx, comment.revisionId),
    }),
    page: t.field({
      type: builder.objectRef<{ id: string }>("CommentTargetPage").implement({
        description: "The page a comment is about.",
        fields: (p) => ({ pageId: p.exposeID("id", { description: "The page's id." }) }),
      }),
      nullable: true,
      description: "The page; null when the comment is about the whole content.",
      resolve: (comment) => (comment.pageId ? { id: comment.pageId } : null),
    }),
    node: t.field({
      type: builder.objectRef<{ id: string }>("CommentTargetNode").implement({
        description: "The block of a page a comment is about.",
        fields: (n) => ({ key: n.exposeID("id", { description: "The key of the node in the page's document." }) }),
      }),
      nullable: true,
      description: "The block of the page; null when the comment is about a whole page.",
      resolve: (comment) => (comment.nodeId ? { id: comment.nodeId } : null),
    }),
    tableCell: t.field({
      type: builder.objectRef<{ record: string; definition: string }>("CommentTargetTableCell").implement({
        description: "The table cell a comment is about.",
        fields: (c) => ({
          record: c.exposeString("record", { description: "The key of the table's record (row)." }),
          definition: c.exposeString("definition", { description: "The key of the table's column definition." }),
        }),
      }),
      nullable: true,
      description: "The table cell of the page; null when the comment is not about a cell.",
      resolve: (comment) =>
        comment.tableCellRecord && comment.tableCellDefinition
          ? { record: comment.tableCellRecord, definition: comment.tableCellDefinition }
          : null,
    }),
  }),
});

const CommentStatusEnum = publicEnum("CommentStatus", "Whether a comment thread is settled.", {
  open: "Not resolved; counted in the open comments of its space or change request.",
  resolved: "Resolved; it can be reopened.",
});
const CommentStatusFilterEnum = publicEnum("CommentStatusFilter", "Which comment threads to list.", {
  all: "Open and resolved threads.",
  open: "Open threads only.",
  resolved: "Resolved threads only.",
});

/** The edge of a thread's `replies`, shared with `postCommentReply`'s payload. */
export const ReplyEdgeRef = builder.edgeObject({ type: ReplyRef, name: "CommentRepliesConnectionEdge" });

builder.node(CommentRef, {
  extensions: { restObjectName: "comment" },
  description:
    "A comment thread on a space or a change request. Readable by whoever may read the space; the comment role " +
    "posts, replies and reacts.",
  id: idColumn,
  loadMany: (ids, ctx) => loadVisibleComments(ctx, ids),
  fields: (t) => ({
    postedBy: t.field({
      type: UserRef,
      description: "Its author.",
      resolve: (comment, _args, ctx) => requiredUser(ctx, comment.postedById),
    }),
    ...commentPlaceFields(t),
    postedAt: t.expose("postedAt", { type: "DateTime", description: "When it was posted." }),
    editedAt: t.expose("editedAt", {
      type: "DateTime",
      nullable: true,
      description: "When its body was last edited; null when never.",
    }),
    status: t.field({
      type: CommentStatusEnum,
      description: "Whether the thread is resolved.",
      resolve: (comment) => (comment.resolvedAt ? "resolved" : "open"),
    }),
    resolvedAt: t.expose("resolvedAt", {
      type: "DateTime",
      nullable: true,
      description: "When it was resolved; null while open.",
    }),
    resolvedBy: t.field({
      type: UserRef,
      nullable: true,
      description: "Who resolved it; null while open.",
      resolve: (comment, _args, ctx) => (comment.resolvedById ? userByIdLoader(ctx).load(comment.resolvedById) : null),
    }),
    reactions: t.field({
      type: [ReactionRef],
      description: "Its reactions, one item per emoji.",
      resolve: (comment, _args, ctx) => reactionsOf(ctx, { commentId: comment.id, targetId: comment.id }),
    }),
    replyCount: t.int({
      description: "Replies in the thread.",
      resolve: (comment, _args, ctx) => replyCount(ctx, comment),
    }),
    repliers: t.field({
      type: [ReplierRef],
      description: "Who replied in the thread, with how many replies each.",
      resolve: (comment, _args, ctx) => repliersOf(ctx, comment),
    }),
    replies: t.connection(
      {
        type: ReplyRef,
        description: "Its replies, oldest first (listCommentRepliesInChangeRequest).",
        resolve: (comment, args, ctx) => listReplies(ctx, comment, args),
      },
      {},
      ReplyEdgeRef,
    ),
    reply: t.field({
      type: ReplyRef,
      description:
        "One of its replies (getCommentReplyInSpace, getCommentReplyInChangeRequest); an error (NOT_FOUND) when none.",
      args: { id: t.arg.id({ required: true, description: "The reply's id." }) },
      resolve: (comment, args, ctx) => getReply(ctx, comment, args.id),
    }),
    body: t.field({
      type: CommentBodyRef,
      description: "Its body, in the format asked for.",
      args: formatArg,
      resolve: (comment, args, ctx) => bodyIn(ctx, comment.markdown, args.format),
    }),
    target: t.field({ type: CommentTargetRef, description: "What it is about.", resolve: (comment) => comment }),
    urls: t.field({
      type: UrlsRef,
      description: "Where the comment is.",
      resolve: (comment, _args, ctx) => ({ location: commentLocation(ctx, comment) }),
    }),
    ...viewerCanFields(
      t,
      (comment, ctx) => messagePermissions(ctx, comment.spaceId, comment.postedById),
      messageViewerCan,
    ),
  }),
});

const filter = (key: keyof typeof commentFiltersSchema.shape) => describeInputField(commentFiltersSchema, key);

const CommentOrderInput = orderInput("Comment", "comment threads", commentListOrder.fields);

const CommentFilterInput = builder.inputType("CommentFilter", {
  description: "Conditions on the comment threads listed, all of which must hold.",
  fields: (t) => ({
    textContains: t.string({ description: describeInputField(commentFilterSchema, "textContains") }),
    ...dateBoundFields(t, commentFilterSchema, ["postedAfter", "postedBefore"]),
  }),
});

const listArgs = builder.args((t) => ({
  status: t.field({ type: CommentStatusFilterEnum, description: filter("status") }),
  targetPage: t.id({ description: filter("targetPage") }),
  authors: t.idList({ description: filter("authors") }),
  orderBy: t.field({ type: [CommentOrderInput], description: orderByDescription("newest first") }),
  filter: t.field({ type: CommentFilterInput, description: "Conditions on the comment threads listed." }),
}));

type ListArgs = { [Key in keyof CommentFilters]?: CommentFilters[Key] };
const filtersOf = (args: ListArgs): CommentFilters => ({
  status: args.status,
  targetPage: args.targetPage,
  authors: args.authors,
});

/** The edge of `commentThreads` (a space's and a change request's), shared with `postComment`'s payload. */
export const CommentThreadEdgeRef = builder.edgeObject({ type: CommentRef, name: "CommentThreadEdge" });

builder.objectFields(SpaceRef, (t) => ({
  commentThreads: t.connection(
    {
      type: CommentRef,
      description: "The space's own comment threads, not those of its change requests (listCommentsInSpace).",
      args: listArgs,
      resolve: (space, args, ctx) => listComments(ctx, { space, changeRequest: null }, filtersOf(args), args, args),
    },
    {},
    CommentThreadEdgeRef,
  ),
  comment: t.field({
    type: CommentRef,
    description: "One of the space's own comments (getCommentInSpace); an error (NOT_FOUND) when none.",
    args: { id: t.arg.id({ required: true, description: "The comment's id." }) },
    resolve: (space, args, ctx) => getComment(ctx, { space, changeRequest: null }, args.id),
  }),
  commenters: t.connection({
    type: MemberRef,
    description: "Members who commented or replied on the space (listCommentersInSpace).",
    resolve: (space, args, ctx) => listCommenters(ctx, { space, changeRequest: null }, args),
  }),
}));

builder.objectFields(ChangeRequestRef, (t) => ({
  commentThreads: t.connection(
    {
      type: CommentRef,
      description: "The change request's comment threads (listCommentsInChangeRequest).",
      args: listArgs,
      resolve: async (changeRequest, args, ctx) =>
        listComments(ctx, await commentBase(ctx, changeRequest.spaceId, changeRequest.id), filtersOf(args), args, args),
    },
    {},
    CommentThreadEdgeRef,
  ),
  comment: t.field({
    type: CommentRef,
    description: "One of the change request's comments (getCommentInChangeRequest); an error (NOT_FOUND) when none.",
    args: { id: t.arg.id({ required: true, description: "The comment's id." }) },
    resolve: async (changeRequest, args, ctx) =>
      getComment(ctx, await commentBase(ctx, changeRequest.spaceId, changeRequest.id), args.id),
  }),
  commenters: t.connection({
    type: MemberRef,
    description: "Members who commented or replied on the change request (listCommentersInChangeRequest).",
    resolve: async (changeRequest, args, ctx) =>
      listCommenters(ctx, await commentBase(ctx, changeRequest.spaceId, changeRequest.id), args),
  }),
}));

/** The comment and reply of a live `changeRequestCommentPosted` event: its subscriber may read the change request. */
builder.objectFields(CommentPostedRef, (t) => ({
  comment: t.field({
    type: CommentRef,
    nullable: true,
    description: "The thread: the comment, or the comment a reply answers; null when deleted since.",
    resolve: (posted, _args, ctx) => commentByIdLoader(ctx).load(posted.commentId),
  }),
  reply: t.field({
    type: ReplyRef,
    nullable: true,
    description: "The reply; null for a new comment, or when deleted since.",
    resolve: (posted, _args, ctx) => (posted.replyId ? replyByIdLoader(ctx).load(posted.replyId) : null),
  }),
}));
