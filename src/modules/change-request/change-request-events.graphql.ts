import type { ChangeRequestCommentPosted, ChangeRequestUpdate } from "../../events/topics.ts";
import { builder } from "../../graphql/builder.ts";
import { ChangeRequestStatusEnum, changeRequestArgs } from "./change-request.graphql.ts";
import { watchChangeRequest, watchChangeRequestComments } from "./change-request.service.ts";

const ChangeRequestUpdateRef = builder.objectRef<ChangeRequestUpdate>("ChangeRequestUpdate").implement({
  description: "A change request's state at one moment: status, subject and revisions.",
  fields: (t) => ({
    changeRequestId: t.exposeID("id", { description: "The change request's id (the `ChangeRequest` node's)." }),
    space: t.exposeID("spaceId", { description: "Id of its space." }),
    number: t.exposeInt("number", { description: "Its number in the space." }),
    status: t.field({
      type: ChangeRequestStatusEnum,
      description: "Its status now.",
      resolve: (update) => update.status,
    }),
    subject: t.exposeString("subject", { description: "Its title now." }),
    revision: t.exposeID("revision", { description: "Its active revision now." }),
    revisionMerged: t.exposeString("revisionMerged", {
      nullable: true,
      description: "The revision its merge made; null until it is merged.",
    }),
    updatedAt: t.field({
      type: "DateTime",
      description: "When it last changed.",
      resolve: (update) => new Date(update.updatedAt),
    }),
  }),
});

const CommentPostedRef = builder.objectRef<ChangeRequestCommentPosted>("ChangeRequestCommentPosted").implement({
  description: "A comment (replyId null) or a reply posted on a change request.",
  fields: (t) => ({
    changeRequest: t.exposeID("changeRequestId", { description: "The change request's id." }),
    comment: t.exposeID("commentId", { description: "The thread: the comment, or the comment a reply answers." }),
    reply: t.exposeID("replyId", { nullable: true, description: "The reply's id; null for a new comment." }),
    postedBy: t.exposeID("postedBy", { description: "The author's user id." }),
    postedAt: t.field({
      type: "DateTime",
      description: "When it was posted.",
      resolve: (posted) => new Date(posted.postedAt),
    }),
  }),
});

builder.subscriptionFields((t) => ({
  changeRequestUpdated: t.field({
    type: ChangeRequestUpdateRef,
    description:
      "The change request's state now, then every change until it is merged (server-sent events). For whoever " +
      "may read the space.",
    args: changeRequestArgs,
    subscribe: (_root, args, ctx) => watchChangeRequest(ctx, args.spaceId, args.changeRequestId),
    resolve: (update) => update,
  }),
  changeRequestCommentPosted: t.field({
    type: CommentPostedRef,
    description:
      "Every comment and reply posted on the change request from now on (server-sent events). For whoever may " +
      "read the space.",
    args: changeRequestArgs,
    subscribe: (_root, args, ctx) => watchChangeRequestComments(ctx, args.spaceId, args.changeRequestId),
    resolve: (posted) => posted,
  }),
}));
