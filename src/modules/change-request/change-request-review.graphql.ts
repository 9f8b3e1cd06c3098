import type { ChangeRequestReview, ChangeRequestReviewer } from "../../db/generated/client.ts";
import { builder } from "../../graphql/builder.ts";
import { publicEnum } from "../../graphql/enums.ts";
import { describeInputField } from "../../graphql/input-description.ts";
import { idColumn, loadBranded } from "../../graphql/node-ids.ts";
import { describeMutation, payloadType } from "../../graphql/payload.ts";
import { checkedByService } from "../../graphql/service-check.ts";
import { edgeOf } from "../../paging/pagination.ts";
import { RevisionRef, revisionOf } from "../content/content.public.ts";
import { UserRef, userByIdLoader } from "../user/user.public.ts";
import { ChangeRequestRef, changeRequestByIdArgs } from "./change-request.graphql.ts";
import { changeRequestByIdLoader, parentChangeRequest } from "./change-request.loaders.ts";
import {
  getReview,
  isReviewOutdated,
  listRequestedReviewers,
  listReviews,
  loadVisibleRequestedReviewers,
  loadVisibleReviews,
  removeRequestedReviewer,
  requestedReviewerIdOf,
  requestReviewers,
  requestReviewersSchema,
  reviewOrder,
  reviewSchema,
  submitReview,
} from "./change-request-review.service.ts";

type Context = Parameters<typeof userByIdLoader>[0];

/** Users referenced by reviews and review requests are deleted with them (cascade), so they are there. */
async function requiredUser(ctx: Context, userId: string) {
  const user = await userByIdLoader(ctx).load(userId);
  if (!user) throw new Error(`User ${userId} is missing`);
  return user;
}

const ReviewStatusEnum = publicEnum<string>("ChangeRequestReviewStatus", "A reviewer's verdict on a change request.", {
  approved: "Ready to merge, as far as this reviewer is concerned.",
  "changes-requested": "Needs changes before it merges.",
});

const ReviewRef = builder.node(builder.objectRef<ChangeRequestReview>("ChangeRequestReview"), {
  description:
    "A reviewer's verdict on one revision of a change request. Readable by whoever may read the change request.",
  id: idColumn,
  loadMany: (ids, ctx) => loadVisibleReviews(ctx, ids),
  fields: (t) => ({
    revisionId: t.exposeID("revisionId", { description: "Id of the revision reviewed (the id of `revision`)." }),
    revision: t.field({
      type: RevisionRef,
      description: "The change request revision reviewed.",
      resolve: (review, _args, ctx) => revisionOf(ctx, review.revisionId),
    }),
    changeRequestId: t.exposeID("changeRequestId", {
      description: "Id of the change request reviewed (the id of `changeRequest`).",
    }),
    changeRequest: t.field({
      type: ChangeRequestRef,
      description: "The change request reviewed.",
      resolve: (review, _args, ctx) => parentChangeRequest(ctx, review.changeRequestId),
    }),
    status: t.expose("status", { type: ReviewStatusEnum, description: "The reviewer's verdict." }),
    reviewer: t.field({
      type: UserRef,
      description: "Who reviewed.",
      resolve: (review, _args, ctx) => requiredUser(ctx, review.reviewerId),
    }),
    requestedBy: t.field({
      type: UserRef,
      nullable: true,
      description: "Who asked the reviewer to review; null when nobody asked.",
      resolve: (review, _args, ctx) => (review.requestedById ? userByIdLoader(ctx).load(review.requestedById) : null),
    }),
    outdated: t.boolean({
      description: "True once the reviewer reviewed again, or the change request moved past the revision reviewed.",
      resolve: (review, _args, ctx) => isReviewOutdated(ctx, review),
    }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When the review was submitted." }),
    updatedAt: t.expose("updatedAt", { type: "DateTime", description: "When the review last changed." }),
    urls: t.field({
      type: builder.objectRef<{ location: string }>("ChangeRequestReviewURLs").implement({
        description: "Addresses of a review.",
        fields: (u) => ({
          location: u.expose("location", { type: "URL", description: "The review on this server's API." }),
        }),
      }),
      description: "Where the review is.",
      resolve: async (review, _args, ctx) => {
        const changeRequest = await changeRequestByIdLoader(ctx).load(review.changeRequestId);
        return {
          location: `${ctx.config.publicUrl}/v1/spaces/${changeRequest?.spaceId}/change-requests/${review.changeRequestId}/reviews/${review.id}`,
        };
      },
    }),
  }),
});

const RequestedReviewerRef = builder.objectRef<ChangeRequestReviewer>("ChangeRequestRequestedReviewer");

builder.node(RequestedReviewerRef, {
  description:
    "A user asked to review a change request: one per change request and user, each with its own id (what " +
    "`removeRequestedReviewerFromChangeRequest` answers as `removedRequestedReviewerId`).",
  id: { resolve: (row) => requestedReviewerIdOf(row.changeRequestId, row.userId) },
  ...loadBranded(RequestedReviewerRef, (ids, ctx) => loadVisibleRequestedReviewers(ctx, ids)),
  fields: (t) => ({
    kind: t.string({ description: "Always user: reviews are asked of users.", resolve: () => "user" }),
    user: t.field({
      type: UserRef,
      description: "The user asked.",
      resolve: (row, _args, ctx) => requiredUser(ctx, row.userId),
    }),
    requestedBy: t.field({
      type: UserRef,
      description: "Who asked.",
      resolve: (row, _args, ctx) => requiredUser(ctx, row.requestedById),
    }),
    revisionId: t.exposeID("revisionId", {
      description: "Id of the change request's revision when they were asked (the id of `revision`).",
    }),
    revision: t.field({
      type: RevisionRef,
      description: "The change request's revision when they were asked.",
      resolve: (row, _args, ctx) => revisionOf(ctx, row.revisionId),
    }),
    createdAt: t.expose("requestedAt", { type: "DateTime", description: "When they were asked." }),
  }),
});

/** The edge of a change request's `reviews`, shared with `submitChangeRequestReview`'s payload. */
const ReviewEdgeRef = builder.edgeObject({ type: ReviewRef, name: "ChangeRequestReviewsConnectionEdge" });

builder.objectFields(ChangeRequestRef, (t) => ({
  reviews: t.connection(
    {
      type: ReviewRef,
      description: "Its reviews, newest first (getReviewsByChangeRequestId).",
      resolve: (row, args, ctx) => listReviews(ctx, row, args),
    },
    {},
    ReviewEdgeRef,
  ),
  review: t.field({
    type: ReviewRef,
    description: "One of its reviews (getChangeRequestReviewById); an error (NOT_FOUND) when it has no such review.",
    args: { id: t.arg.id({ required: true, description: "The review's id." }) },
    resolve: (row, args, ctx) => getReview(ctx, row, args.id),
  }),
  requestedReviewers: t.connection({
    type: RequestedReviewerRef,
    description: "The users asked to review it (getRequestedReviewersByChangeRequestId).",
    resolve: (row, args, ctx) => listRequestedReviewers(ctx, row, args),
  }),
}));

const SubmitReviewInput = builder.inputType("SubmitChangeRequestReviewInput", {
  description: "A review of the change request's current revision.",
  fields: (t) => ({
    status: t.field({
      type: ReviewStatusEnum,
      required: true,
      description: describeInputField(reviewSchema, "status"),
      extensions: checkedByService(reviewSchema, 1),
    }),
    comment: t.field({ type: "JSON", description: describeInputField(reviewSchema, "comment") }),
  }),
});

const RequestReviewersInput = builder.inputType("RequestReviewersInput", {
  description: "Users to ask for a review, and optionally a new title and description for the change request.",
  fields: (t) => ({
    users: t.idList({ required: true, description: describeInputField(requestReviewersSchema, "users") }),
    subject: t.string({ description: describeInputField(requestReviewersSchema, "subject") }),
    description: t.field({ type: "JSON", description: describeInputField(requestReviewersSchema, "description") }),
  }),
});

const SubmitChangeRequestReviewPayloadRef = payloadType<{
  review: typeof ReviewRef.$inferType;
  reviewEdge: typeof ReviewEdgeRef.$inferType;
}>("submitChangeRequestReview", {
  review: { type: ReviewRef, description: "The new review." },
  reviewEdge: { type: ReviewEdgeRef, description: "The new review's edge in the change request's `reviews`." },
});

const RequestReviewersForChangeRequestPayloadRef = payloadType<{ changeRequest: typeof ChangeRequestRef.$inferType }>(
  "requestReviewersForChangeRequest",
  {
    changeRequest: { type: ChangeRequestRef, description: "The change request, with its requested reviewers." },
  },
);

const RemoveRequestedReviewerFromChangeRequestPayloadRef = payloadType<{
  removedRequestedReviewerId: string;
  removedUserId: string;
  changeRequest: typeof ChangeRequestRef.$inferType;
}>("removeRequestedReviewerFromChangeRequest", {
  removedRequestedReviewerId: {
    type: "ID",
    description: "The withdrawn review request's id (for `@deleteEdge` on `requestedReviewers`).",
  },
  removedUserId: { type: "ID", description: "The user no longer asked." },
  changeRequest: { type: ChangeRequestRef, description: "The change request." },
});

builder.mutationFields((t) => ({
  submitChangeRequestReview: t.field({
    type: SubmitChangeRequestReviewPayloadRef,
    ...describeMutation(
      "Reviews the change request's current revision: approve it or request changes. Needs the review role on " +
        "the space; a draft or open change request only; authors may not approve their own.",
      {
        NOT_FOUND: "no such space or change request for the caller",
        FORBIDDEN: "below the review role, or an author approving their own",
        BAD_USER_INPUT: "invalid input",
        CONFLICT: "not a draft or open change request",
      },
    ),
    args: {
      ...changeRequestByIdArgs,
      input: t.arg({ type: SubmitReviewInput, required: true, description: "The verdict." }),
    },
    resolve: async (_root, a, ctx) => {
      const review = await submitReview(ctx, a.spaceId, a.changeRequestId, a.input);
      return { review, reviewEdge: edgeOf(reviewOrder, review) };
    },
  }),
  requestReviewersForChangeRequest: t.field({
    type: RequestReviewersForChangeRequestPayloadRef,
    ...describeMutation(
      "Asks members of the organization to review the change request (asking again keeps one request). Needs the " +
        "edit role on the space; a draft or open change request only.",
      {
        NOT_FOUND: "no such space or change request for the caller",
        FORBIDDEN: "below the edit role",
        BAD_USER_INPUT: "a user who is not an organization member",
        CONFLICT: "not a draft or open change request",
      },
    ),
    args: {
      ...changeRequestByIdArgs,
      input: t.arg({ type: RequestReviewersInput, required: true, description: "Who to ask." }),
    },
    resolve: async (_root, a, ctx) => ({
      changeRequest: await requestReviewers(ctx, a.spaceId, a.changeRequestId, a.input),
    }),
  }),
  removeRequestedReviewerFromChangeRequest: t.field({
    type: RemoveRequestedReviewerFromChangeRequestPayloadRef,
    ...describeMutation(
      "Withdraws the request for a user's review; succeeds even when they were not asked. Needs the edit role on " +
        "the space.",
      { NOT_FOUND: "no such space or change request for the caller", FORBIDDEN: "below the edit role" },
    ),
    args: {
      ...changeRequestByIdArgs,
      userId: t.arg.id({ required: true, description: "The user no longer asked." }),
    },
    resolve: async (_root, a, ctx) => {
      const changeRequest = await removeRequestedReviewer(ctx, a.spaceId, a.changeRequestId, a.userId);
      return {
        removedRequestedReviewerId: requestedReviewerIdOf(changeRequest.id, a.userId),
        removedUserId: a.userId,
        changeRequest,
      };
    },
  }),
}));
