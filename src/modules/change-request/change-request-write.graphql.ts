import { builder } from "../../graphql/builder.ts";
import { describeInputField } from "../../graphql/input-description.ts";
import { describeMutation, payloadType } from "../../graphql/payload.ts";
import { checkedByService } from "../../graphql/service-check.ts";
import { edgeOf } from "../../paging/pagination.ts";
import { ContentChangesInput, ContentEditRef, RevisionRef, revisionOf } from "../content/content.public.ts";
import {
  ChangeRequestEdgeRef,
  ChangeRequestRef,
  ChangeRequestStatusEnum,
  changeRequestByIdArgs,
} from "./change-request.graphql.ts";
import {
  createChangeRequest,
  createChangeRequestSchema,
  getChangeRequest,
  updateChangeRequest,
  updateChangeRequestSchema,
  writeChangeRequestContent,
} from "./change-request.service.ts";
import { changeRequestOrder } from "./change-request-list.ts";
import { type MergeResult, mergeChangeRequest, updateChangeRequestFromSpace } from "./change-request-merge.service.ts";

const CreateChangeRequestInput = builder.inputType("CreateChangeRequestInput", {
  description: "A new change request on the space's current content.",
  fields: (t) => ({
    subject: t.string({ description: describeInputField(createChangeRequestSchema, "subject") }),
    template: t.field({ type: "JSON", description: describeInputField(createChangeRequestSchema, "template") }),
  }),
});

const UpdateChangeRequestInput = builder.inputType("UpdateChangeRequestInput", {
  description: "The change request's fields to change; those omitted stay.",
  fields: (t) => ({
    subject: t.string({ description: describeInputField(updateChangeRequestSchema, "subject") }),
    description: t.field({ type: "JSON", description: describeInputField(updateChangeRequestSchema, "description") }),
    status: t.field({
      type: ChangeRequestStatusEnum,
      description: describeInputField(updateChangeRequestSchema, "status"),
      extensions: checkedByService(updateChangeRequestSchema, 1),
    }),
  }),
});

const MergeResultRef = builder.objectRef<MergeResult>("ChangeRequestMergeResult").implement({
  description: "The revision a merge or an update made.",
  fields: (t) => ({
    revisionId: t.exposeID("revision", { description: "Id of the resulting revision (the id of `revision`)." }),
    revision: t.field({
      type: RevisionRef,
      description: "The resulting revision.",
      resolve: (result, _args, ctx) => revisionOf(ctx, result.revision),
    }),
    result: t.exposeString("result", {
      description: "merge (the space took the change request's content) or update (the reverse).",
    }),
  }),
});

const CreateChangeRequestPayloadRef = payloadType<{
  changeRequest: typeof ChangeRequestRef.$inferType;
  changeRequestEdge: typeof ChangeRequestEdgeRef.$inferType;
}>("createChangeRequest", {
  changeRequest: { type: ChangeRequestRef, description: "The new change request." },
  changeRequestEdge: {
    type: ChangeRequestEdgeRef,
    description: "The new change request's edge in the space's `changeRequests`.",
  },
});

const UpdateChangeRequestDetailsPayloadRef = payloadType<{ changeRequest: typeof ChangeRequestRef.$inferType }>(
  "updateChangeRequestDetails",
  {
    changeRequest: { type: ChangeRequestRef, description: "The change request, changed." },
  },
);

const MergeChangeRequestPayloadRef = payloadType<{
  outcome: typeof MergeResultRef.$inferType;
  changeRequest: typeof ChangeRequestRef.$inferType;
}>("mergeChangeRequest", {
  outcome: { type: MergeResultRef, description: "The revision the merge made." },
  changeRequest: { type: ChangeRequestRef, description: "The change request, merged." },
});

const UpdateChangeRequestFromSpacePayloadRef = payloadType<{
  outcome: typeof MergeResultRef.$inferType;
  changeRequest: typeof ChangeRequestRef.$inferType;
}>("updateChangeRequestFromSpace", {
  outcome: { type: MergeResultRef, description: "The revision the update made." },
  changeRequest: { type: ChangeRequestRef, description: "The change request, updated." },
});

const UpdateChangeRequestContentPayloadRef = payloadType<{ contentEdit: typeof ContentEditRef.$inferType }>(
  "updateChangeRequestContent",
  {
    contentEdit: { type: ContentEditRef, description: "The revision written." },
  },
);

builder.mutationFields((t) => ({
  createChangeRequest: t.field({
    type: CreateChangeRequestPayloadRef,
    ...describeMutation(
      "Opens a change request on the space's current content, numbered next in the space (createChangeRequest). " +
        "Needs the edit role on a space that is not locked.",
      {
        NOT_FOUND: "no such space for the caller",
        FORBIDDEN: "below the edit role, or the space is locked",
        BAD_USER_INPUT: "invalid input",
      },
    ),
    args: {
      spaceId: t.arg.id({ required: true, description: "The space to change." }),
      input: t.arg({ type: CreateChangeRequestInput, required: true, description: "Its title and template." }),
    },
    resolve: async (_root, args, ctx) => {
      const changeRequest = await createChangeRequest(ctx, args.spaceId, args.input);
      return { changeRequest, changeRequestEdge: edgeOf(changeRequestOrder, changeRequest) };
    },
  }),
  updateChangeRequestDetails: t.field({
    type: UpdateChangeRequestDetailsPayloadRef,
    ...describeMutation(
      "Changes the title, description or status (updateChangeRequestById). Needs the edit role on the space; a " +
        "merged change request cannot change.",
      {
        NOT_FOUND: "no such space or change request for the caller",
        FORBIDDEN: "below the edit role",
        BAD_USER_INPUT: "invalid input",
        CONFLICT: "the change request is merged",
      },
    ),
    args: {
      ...changeRequestByIdArgs,
      input: t.arg({ type: UpdateChangeRequestInput, required: true, description: "What to change." }),
    },
    resolve: async (_root, args, ctx) => ({
      changeRequest: await updateChangeRequest(ctx, args.spaceId, args.changeRequestId, args.input),
    }),
  }),
  mergeChangeRequest: t.field({
    type: MergeChangeRequestPayloadRef,
    ...describeMutation(
      "Merges the change request into the space, which then holds its content (mergeChangeRequest). Needs the " +
        "review role on a space that is not locked, a draft or open change request, and the space's merge rules met.",
      {
        NOT_FOUND: "no such space or change request for the caller",
        FORBIDDEN: "below the review role, the space is locked, or its merge rules are not met",
        CONFLICT: "not a draft or open change request, or the content conflicts",
      },
    ),
    args: changeRequestByIdArgs,
    resolve: async (_root, args, ctx) => {
      const outcome = await mergeChangeRequest(ctx, args.spaceId, args.changeRequestId);
      return { outcome, changeRequest: await getChangeRequest(ctx, args.spaceId, args.changeRequestId) };
    },
  }),
  updateChangeRequestFromSpace: t.field({
    type: UpdateChangeRequestFromSpacePayloadRef,
    ...describeMutation(
      "Pulls the space's current content into the change request (updateChangeRequest). Needs the edit role on a " +
        "space that is not locked; a draft or open change request only.",
      {
        NOT_FOUND: "no such space or change request for the caller",
        FORBIDDEN: "below the edit role, or the space is locked",
        CONFLICT: "not a draft or open change request, or the content conflicts",
      },
    ),
    args: changeRequestByIdArgs,
    resolve: async (_root, args, ctx) => {
      const outcome = await updateChangeRequestFromSpace(ctx, args.spaceId, args.changeRequestId);
      return { outcome, changeRequest: await getChangeRequest(ctx, args.spaceId, args.changeRequestId) };
    },
  }),
  updateChangeRequestContent: t.field({
    type: UpdateChangeRequestContentPayloadRef,
    ...describeMutation(
      "Writes content changes into the change request as one new revision. Needs the edit role on a space that is " +
        "not locked; a draft or open change request only.",
      {
        NOT_FOUND: "no such space or change request for the caller",
        FORBIDDEN: "below the edit role, or the space is locked",
        BAD_USER_INPUT: "invalid changes",
        CONFLICT: "not a draft or open change request, or a stale base revision",
      },
    ),
    args: {
      ...changeRequestByIdArgs,
      input: t.arg({ type: ContentChangesInput, required: true, description: "The changes to write." }),
    },
    resolve: async (_root, args, ctx) => ({
      contentEdit: await writeChangeRequestContent(ctx, args.spaceId, args.changeRequestId, args.input),
    }),
  }),
}));
