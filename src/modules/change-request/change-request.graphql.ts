import type { ChangeRequest, ChangeRequestReview, ChangeRequestReviewer } from "../../db/generated/client.ts";
import type { ChangeRequestCommentPosted, ChangeRequestUpdate } from "../../events/topics.ts";
import { builder } from "../../graphql/builder.ts";
import {
  ContentChangesInput,
  ContentEditRef,
  computedDescription,
  metadataDescription,
  RevisionRef,
} from "../content/content.graphql.ts";
import { revisionOf, revisionRead } from "../content/content.service.ts";
import { OrganizationRef } from "../organization/organization.graphql.ts";
import { SpaceRef } from "../space/space.graphql.ts";
import { UserRef } from "../user/user.graphql.ts";
import { userByIdLoader } from "../user/user.service.ts";
import { changeRequestByIdLoader } from "./change-request.loaders.ts";
import {
  type ChangeRequestFilters,
  changeRequestPermissions,
  createChangeRequest,
  getChangeRequest,
  isOutdated,
  listChangeRequests,
  listContributors,
  loadVisibleChangeRequests,
  updateChangeRequest,
  watchChangeRequest,
  watchChangeRequestComments,
  writeChangeRequestContent,
} from "./change-request.service.ts";
import { type MergeResult, mergeChangeRequest, updateChangeRequestFromSpace } from "./change-request-merge.service.ts";
import { changeRequestPdf } from "./change-request-pdf.service.ts";
import {
  getReview,
  isReviewOutdated,
  listRequestedReviewers,
  listReviews,
  loadVisibleReviews,
  removeRequestedReviewer,
  requestReviewers,
  submitReview,
} from "./change-request-review.service.ts";

export const ChangeRequestRef = builder.objectRef<ChangeRequest>("ChangeRequest");

const ChangeRequestStatusEnum = builder.enumType("ChangeRequestStatus", {
  values: ["draft", "open", "archived", "merged"] as const,
});

const ChangeRequestOrderByEnum = builder.enumType("ChangeRequestOrderBy", {
  values: ["updatedAt", "createdAt"] as const,
});

type Context = Parameters<typeof userByIdLoader>[0];

async function userOf(ctx: Context, userId: string | null) {
  return userId ? userByIdLoader(ctx).load(userId) : null;
}

/** Users referenced by reviews and review requests are deleted with them (cascade), so they are there. */
async function requiredUser(ctx: Context, userId: string) {
  const user = await userByIdLoader(ctx).load(userId);
  if (!user) throw new Error(`User ${userId} is missing`);
  return user;
}

const ReviewRef = builder.node(builder.objectRef<ChangeRequestReview>("ChangeRequestReview"), {
  description: "A reviewer's verdict on one revision of a change request.",
  id: { resolve: (row) => row.id },
  loadMany: (ids, ctx) => loadVisibleReviews(ctx, ids),
  fields: (t) => ({
    revision: t.exposeString("revisionId"),
    status: t.exposeString("status", { description: "approved or changes-requested." }),
    reviewer: t.field({
      type: UserRef,
      resolve: (review, _args, ctx) => requiredUser(ctx, review.reviewerId),
    }),
    requestedBy: t.field({
      type: UserRef,
      nullable: true,
      resolve: (review, _args, ctx) => userOf(ctx, review.requestedById),
    }),
    outdated: t.boolean({ resolve: (review, _args, ctx) => isReviewOutdated(ctx, review) }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
    urls: t.field({
      type: builder.objectRef<{ location: string }>("ChangeRequestReviewUrls").implement({
        fields: (u) => ({ location: u.exposeString("location") }),
      }),
      resolve: async (review, _args, ctx) => {
        const changeRequest = await changeRequestByIdLoader(ctx).load(review.changeRequestId);
        return {
          location: `${ctx.config.publicUrl}/v1/spaces/${changeRequest?.spaceId}/change-requests/${review.changeRequestId}/reviews/${review.id}`,
        };
      },
    }),
  }),
});

const RequestedReviewerRef = builder.objectRef<ChangeRequestReviewer>("ChangeRequestRequestedReviewer").implement({
  fields: (t) => ({
    kind: t.string({ resolve: () => "user" }),
    user: t.field({ type: UserRef, resolve: (row, _args, ctx) => requiredUser(ctx, row.userId) }),
    requestedBy: t.field({ type: UserRef, resolve: (row, _args, ctx) => requiredUser(ctx, row.requestedById) }),
    revision: t.exposeString("revisionId"),
    createdAt: t.expose("requestedAt", { type: "DateTime" }),
  }),
});

builder.node(ChangeRequestRef, {
  description: "Proposed edits to a space, on their own revisions, merged back when ready.",
  id: { resolve: (changeRequest) => changeRequest.id },
  loadMany: (ids, ctx) => loadVisibleChangeRequests(ctx, ids),
  fields: (t) => ({
    number: t.exposeInt("number", { description: "Incremental within the space." }),
    status: t.field({ type: ChangeRequestStatusEnum, resolve: (row) => row.status as "open" }),
    subject: t.exposeString("subject"),
    description: t.field({ type: "JSON", nullable: true, resolve: (row) => row.description }),
    createdBy: t.field({ type: UserRef, nullable: true, resolve: (row, _args, ctx) => userOf(ctx, row.createdById) }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
    space: t.exposeString("spaceId", { description: "Id of the space." }),
    revision: t.exposeString("revisionId", { description: "The change request's active revision." }),
    revisionInitial: t.exposeString("revisionInitial", { description: "The space revision it was created from." }),
    revisionMergedAncestor: t.exposeString("revisionMergedAncestor", {
      nullable: true,
      description: "The space revision it last took in (update).",
    }),
    revisionMerged: t.exposeString("revisionMerged", { nullable: true, description: "The revision its merge made." }),
    comments: t.exposeInt("comments", { description: "Open comments." }),
    outdated: t.boolean({
      description: "True when the space moved on since the change request last took in its content.",
      resolve: (row, _args, ctx) => isOutdated(ctx, row),
    }),
    urls: t.field({
      type: builder.objectRef<{ app: string; location: string }>("ChangeRequestUrls").implement({
        fields: (u) => ({ app: u.exposeString("app"), location: u.exposeString("location") }),
      }),
      resolve: (row, _args, ctx) => ({
        app: `${ctx.config.publicUrl}/graphql`,
        location: `${ctx.config.publicUrl}/v1/spaces/${row.spaceId}/change-requests/${row.id}`,
      }),
    }),
    permissions: t.field({
      type: builder
        .objectRef<{ edit: boolean; review: boolean; merge: boolean }>("ChangeRequestPermissions")
        .implement({
          fields: (p) => ({
            edit: p.exposeBoolean("edit"),
            review: p.exposeBoolean("review"),
            merge: p.exposeBoolean("merge"),
          }),
        }),
      resolve: (row, _args, ctx) => changeRequestPermissions(ctx, row),
    }),
    content: t.field({
      type: RevisionRef,
      description: "getRevisionOfChangeRequestById: the change request's active revision.",
      args: {
        metadata: t.arg.boolean({ description: metadataDescription }),
        computed: t.arg.boolean({ description: computedDescription }),
      },
      resolve: async (row, args, ctx) => revisionRead(await revisionOf(ctx, row.revisionId), args),
    }),
    pdf: t.field({
      type: builder.objectRef<{ url: string }>("ChangeRequestPdf").implement({
        fields: (p) => ({ url: p.exposeString("url", { description: "Opens the PDF without a token for an hour." }) }),
      }),
      description: "getChangeRequestPDF",
      // The link it makes renders the whole revision (estimateCost units, src/graphql/cost.ts).
      extensions: { cost: { weight: 20_000 } },
      args: {
        only: t.arg.boolean({ description: "Only the given page, without its subpages." }),
        page: t.arg.string({ description: "A page id: that page (and its subpages unless only)." }),
      },
      resolve: (row, args, ctx) => changeRequestPdf(ctx, row, args),
    }),
    reviews: t.connection({
      type: ReviewRef,
      description: "getReviewsByChangeRequestId: newest first.",
      resolve: (row, args, ctx) => listReviews(ctx, row, args),
    }),
    review: t.field({
      type: ReviewRef,
      description: "getChangeRequestReviewById",
      args: { id: t.arg.string({ required: true }) },
      resolve: (row, args, ctx) => getReview(ctx, row, args.id),
    }),
    requestedReviewers: t.connection({
      type: RequestedReviewerRef,
      description: "getRequestedReviewersByChangeRequestId",
      resolve: (row, args, ctx) => listRequestedReviewers(ctx, row, args),
    }),
    contributors: t.field({
      type: [UserRef],
      description: "Users who wrote content into the change request.",
      resolve: async (row, _args, ctx) =>
        (await Promise.all((await listContributors(ctx, row)).map((id) => userOf(ctx, id)))).filter(
          (user) => user !== null,
        ),
    }),
  }),
});

const filterArgs = builder.args((t) => ({
  status: t.field({ type: ChangeRequestStatusEnum, description: "Default: open." }),
  creator: t.string({ description: "A user id." }),
  contributor: t.string({ description: "A user id." }),
  requestedReviewer: t.string({ description: "A user id." }),
  orderBy: t.field({ type: ChangeRequestOrderByEnum, description: "Newest first by this field; default updatedAt." }),
}));

const filtersOf = (args: { [Key in keyof ChangeRequestFilters]?: ChangeRequestFilters[Key] }) => ({
  status: args.status,
  creator: args.creator,
  contributor: args.contributor,
  requestedReviewer: args.requestedReviewer,
  orderBy: args.orderBy,
});

builder.objectFields(SpaceRef, (t) => ({
  changeRequests: t.connection({
    type: ChangeRequestRef,
    description: "listChangeRequestsForSpace",
    args: filterArgs,
    resolve: (space, args, ctx) => listChangeRequests(ctx, { spaceId: space.id }, filtersOf(args), args),
  }),
  changeRequest: t.field({
    type: ChangeRequestRef,
    description: "getChangeRequestById: by id or by number in the space.",
    args: { id: t.arg.string({ required: true }) },
    resolve: (space, args, ctx) => getChangeRequest(ctx, space.id, args.id),
  }),
}));

builder.objectFields(RevisionRef, (t) => ({
  mergedFrom: t.field({
    type: ChangeRequestRef,
    nullable: true,
    description: "Merge revisions: the change request merged.",
    resolve: (revision, _args, ctx) =>
      revision.type === "merge" && revision.changeRequestId
        ? changeRequestByIdLoader(ctx).load(revision.changeRequestId)
        : null,
  }),
}));

builder.objectFields(OrganizationRef, (t) => ({
  changeRequests: t.connection({
    type: ChangeRequestRef,
    description: "listChangeRequestsForOrganization: in the spaces the viewer can see.",
    args: {
      ...filterArgs,
      site: t.arg.id({ description: "A site id: only change requests of the spaces its site spaces publish." }),
      space: t.arg.id({ description: "A space id: only that space's change requests." }),
    },
    resolve: (organization, args, ctx) =>
      listChangeRequests(
        ctx,
        { organizationId: organization.id, siteId: args.site ?? null, spaceId: args.space ?? null },
        filtersOf(args),
        args,
      ),
  }),
}));

const CreateChangeRequestInput = builder.inputType("CreateChangeRequestInput", {
  fields: (t) => ({
    subject: t.string({ description: "At most 100 characters." }),
    template: t.field({ type: "JSON", description: "{ id, params }: a content template to start from." }),
  }),
});

const UpdateChangeRequestInput = builder.inputType("UpdateChangeRequestInput", {
  fields: (t) => ({
    subject: t.string({ description: "At most 100 characters." }),
    description: t.field({ type: "JSON", description: "A rich-text document." }),
    status: t.string({ description: "draft, open or archived." }),
  }),
});

const SubmitReviewInput = builder.inputType("SubmitChangeRequestReviewInput", {
  fields: (t) => ({
    status: t.string({ required: true, description: "approved or changes-requested." }),
    comment: t.field({ type: "JSON" }),
  }),
});

const RequestReviewersInput = builder.inputType("RequestReviewersInput", {
  fields: (t) => ({
    users: t.stringList({ required: true, description: "User ids (members of the organization)." }),
    subject: t.string(),
    description: t.field({ type: "JSON" }),
  }),
});

const MergeResultRef = builder.objectRef<MergeResult>("ChangeRequestMergeResult").implement({
  fields: (t) => ({
    revision: t.exposeString("revision", { description: "The resulting revision." }),
    result: t.exposeString("result", { description: "merge or update." }),
  }),
});

builder.mutationFields((t) => {
  const spaceArgs = { spaceId: t.arg.id({ required: true }) };
  const changeRequestArgs = { ...spaceArgs, changeRequestId: t.arg.string({ required: true }) };
  return {
    createChangeRequest: t.field({
      type: ChangeRequestRef,
      args: { ...spaceArgs, input: t.arg({ type: CreateChangeRequestInput, required: true }) },
      resolve: (_root, args, ctx) => createChangeRequest(ctx, String(args.spaceId), args.input),
    }),
    updateChangeRequestById: t.field({
      type: ChangeRequestRef,
      args: { ...changeRequestArgs, input: t.arg({ type: UpdateChangeRequestInput, required: true }) },
      resolve: (_root, args, ctx) => updateChangeRequest(ctx, String(args.spaceId), args.changeRequestId, args.input),
    }),
    mergeChangeRequest: t.field({
      type: MergeResultRef,
      args: changeRequestArgs,
      resolve: (_root, args, ctx) => mergeChangeRequest(ctx, String(args.spaceId), args.changeRequestId),
    }),
    updateChangeRequest: t.field({
      type: MergeResultRef,
      description: "Pulls the space's current content into the change request.",
      args: changeRequestArgs,
      resolve: (_root, args, ctx) => updateChangeRequestFromSpace(ctx, String(args.spaceId), args.changeRequestId),
    }),
    updateChangeRequestContent: t.field({
      type: ContentEditRef,
      description: "Writes 1..50 content changes into the change request as one new revision.",
      args: { ...changeRequestArgs, input: t.arg({ type: ContentChangesInput, required: true }) },
      resolve: (_root, args, ctx) =>
        writeChangeRequestContent(ctx, String(args.spaceId), args.changeRequestId, args.input),
    }),
    submitChangeRequestReview: t.field({
      type: ReviewRef,
      args: { ...changeRequestArgs, input: t.arg({ type: SubmitReviewInput, required: true }) },
      resolve: (_root, args, ctx) => submitReview(ctx, String(args.spaceId), args.changeRequestId, args.input),
    }),
    requestReviewersForChangeRequest: t.field({
      type: ChangeRequestRef,
      args: { ...changeRequestArgs, input: t.arg({ type: RequestReviewersInput, required: true }) },
      resolve: (_root, args, ctx) => requestReviewers(ctx, String(args.spaceId), args.changeRequestId, args.input),
    }),
    removeRequestedReviewerFromChangeRequest: t.boolean({
      args: { ...changeRequestArgs, userId: t.arg.string({ required: true }) },
      resolve: async (_root, args, ctx) => {
        await removeRequestedReviewer(ctx, String(args.spaceId), args.changeRequestId, args.userId);
        return true;
      },
    }),
  };
});

const ChangeRequestUpdateRef = builder.objectRef<ChangeRequestUpdate>("ChangeRequestUpdate").implement({
  description: "A change request's state at one moment: status, subject and revisions.",
  fields: (t) => ({
    id: t.exposeID("id"),
    space: t.exposeString("spaceId"),
    number: t.exposeInt("number"),
    status: t.field({ type: ChangeRequestStatusEnum, resolve: (update) => update.status }),
    subject: t.exposeString("subject"),
    revision: t.exposeString("revision"),
    revisionMerged: t.exposeString("revisionMerged", { nullable: true }),
    updatedAt: t.field({ type: "DateTime", resolve: (update) => new Date(update.updatedAt) }),
  }),
});

const CommentPostedRef = builder.objectRef<ChangeRequestCommentPosted>("ChangeRequestCommentPosted").implement({
  description: "A comment (replyId null) or a reply posted on a change request.",
  fields: (t) => ({
    changeRequest: t.exposeID("changeRequestId"),
    comment: t.exposeID("commentId", { description: "The thread: the comment, or the comment a reply answers." }),
    reply: t.exposeID("replyId", { nullable: true }),
    postedBy: t.exposeID("postedBy", { description: "The author's user id." }),
    postedAt: t.field({ type: "DateTime", resolve: (posted) => new Date(posted.postedAt) }),
  }),
});

builder.subscriptionFields((t) => {
  const args = { spaceId: t.arg.id({ required: true }), changeRequestId: t.arg.string({ required: true }) };
  return {
    changeRequestUpdated: t.field({
      type: ChangeRequestUpdateRef,
      description: "The change request's state now, then every change until it is merged (server-sent events).",
      args,
      subscribe: (_root, a, ctx) => watchChangeRequest(ctx, String(a.spaceId), a.changeRequestId),
      resolve: (update) => update,
    }),
    changeRequestCommentPosted: t.field({
      type: CommentPostedRef,
      description: "Every comment and reply posted on the change request from now on (server-sent events).",
      args,
      subscribe: (_root, a, ctx) => watchChangeRequestComments(ctx, String(a.spaceId), a.changeRequestId),
      resolve: (posted) => posted,
    }),
  };
});
