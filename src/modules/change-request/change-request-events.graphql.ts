import type { ChangeRequestCommentPosted, ChangeRequestUpdate } from "../../events/topics.ts";
import { builder } from "../../graphql/builder.ts";
import { freshlyLoaded } from "../../request/loaders.ts";
import { RevisionRef, revisionOf } from "../content/content.public.ts";
import { parentSpace, SpaceRef } from "../space/space.public.ts";
import { UserRef, userByIdLoader } from "../user/user.public.ts";
import { ChangeRequestRef, ChangeRequestStatusEnum, changeRequestArgs } from "./change-request.graphql.ts";
import { parentChangeRequest } from "./change-request.loaders.ts";
import { watchChangeRequest, watchChangeRequestComments } from "./change-request.service.ts";

const ChangeRequestUpdateRef = builder.objectRef<ChangeRequestUpdate>("ChangeRequestUpdate").implement({
  description: "A change request's state at one moment: status, subject and revisions.",
  fields: (t) => ({
    changeRequestId: t.exposeID("id", { description: "The change request's id (the id of `changeRequest`)." }),
    changeRequest: t.field({
      type: ChangeRequestRef,
      description: "The change request, as it is read now.",
      resolve: (update, _args, ctx) => parentChangeRequest(ctx, update.id),
    }),
    spaceId: t.exposeID("spaceId", { description: "Id of its space (the id of `space`)." }),
    space: t.field({
      type: SpaceRef,
      description: "Its space.",
      resolve: (update, _args, ctx) => parentSpace(ctx, update.spaceId),
    }),
    number: t.exposeInt("number", { description: "Its number in the space." }),
    status: t.field({
      type: ChangeRequestStatusEnum,
      description: "Its status now.",
      resolve: (update) => update.status,
    }),
    subject: t.exposeString("subject", { description: "Its title now." }),
    revisionId: t.exposeID("revision", { description: "Id of its active revision now (the id of `revision`)." }),
    revision: t.field({
      type: RevisionRef,
      description: "Its active revision now.",
      resolve: (update, _args, ctx) => revisionOf(ctx, update.revision),
    }),
    mergedRevisionId: t.exposeID("revisionMerged", {
      nullable: true,
      description: "Id of the revision its merge made (the id of `mergedRevision`); null until it is merged.",
    }),
    mergedRevision: t.field({
      type: RevisionRef,
      nullable: true,
      description: "The revision its merge made; null until it is merged.",
      resolve: (update, _args, ctx) => (update.revisionMerged ? revisionOf(ctx, update.revisionMerged) : null),
    }),
    updatedAt: t.field({
      type: "DateTime",
      description: "When it last changed.",
      resolve: (update) => new Date(update.updatedAt),
    }),
  }),
});

export const CommentPostedRef = builder.objectRef<ChangeRequestCommentPosted>("ChangeRequestCommentPosted").implement({
  description: "A comment (replyId null) or a reply posted on a change request.",
  fields: (t) => ({
    changeRequestId: t.exposeID("changeRequestId", {
      description: "The change request's id (the id of `changeRequest`).",
    }),
    changeRequest: t.field({
      type: ChangeRequestRef,
      description: "The change request it was posted on.",
      resolve: (posted, _args, ctx) => parentChangeRequest(ctx, posted.changeRequestId),
    }),
    commentId: t.exposeID("commentId", {
      description: "The thread's id: the comment, or the comment a reply answers (the id of `comment`).",
    }),
    replyId: t.exposeID("replyId", {
      nullable: true,
      description: "The reply's id (the id of `reply`); null for a new comment.",
    }),
    postedById: t.exposeID("postedBy", { description: "The author's user id (the id of `postedBy`)." }),
    postedBy: t.field({
      type: UserRef,
      nullable: true,
      description: "The author; null when that user was deleted since.",
      resolve: (posted, _args, ctx) => userByIdLoader(ctx).load(posted.postedBy),
    }),
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
    resolve: (update, _args, ctx) => freshlyLoaded(ctx, update),
  }),
  changeRequestCommentPosted: t.field({
    type: CommentPostedRef,
    description:
      "Every comment and reply posted on the change request from now on (server-sent events). For whoever may " +
      "read the space.",
    args: changeRequestArgs,
    subscribe: (_root, args, ctx) => watchChangeRequestComments(ctx, args.spaceId, args.changeRequestId),
    resolve: (posted, _args, ctx) => freshlyLoaded(ctx, posted),
  }),
}));
