import { builder } from "../../graphql/builder.ts";
import { RoleEnum } from "../../graphql/enums.ts";
import { describeInputField } from "../../graphql/input-description.ts";
import { describeMutation, payloadType } from "../../graphql/payload.ts";
import { checkedByService } from "../../graphql/service-check.ts";
import { edgeOf } from "../../paging/pagination.ts";
import { collectionOrder, createCollection, createCollectionSchema } from "./collection.service.ts";
import { getSpace } from "./space.access.ts";
import { CollectionEdgeRef, CollectionRef, SpaceEdgeRef, SpaceEditModeEnum, SpaceRef } from "./space.graphql.ts";
import {
  createSpace,
  createSpaceSchema,
  deleteSpace,
  inviteSchema,
  inviteToSpace,
  restoreSpace,
  updateSpace,
  updateSpaceSchema,
  updateSpaceVisibility,
} from "./space.service.ts";
import { spaceOrder } from "./space-list.service.ts";
import {
  duplicateSpace,
  moveSpace,
  moveSpaceSchema,
  spacePointerSchema,
  spacePositionSchema,
  transferSpace,
  transferSpaceSchema,
} from "./space-relocation.service.ts";
import { LanguageEnum, SpacePointerTypeEnum, SpaceVisibilityEnum } from "./space-values.graphql.ts";

const CreateSpaceInput = builder.inputType("CreateSpaceInput", {
  description: "A new space.",
  fields: (t) => ({
    title: t.string({ description: describeInputField(createSpaceSchema, "title") }),
    emoji: t.string({ description: describeInputField(createSpaceSchema, "emoji") }),
    parent: t.id({ description: describeInputField(createSpaceSchema, "parent") }),
    language: t.field({
      type: LanguageEnum,
      description: describeInputField(createSpaceSchema, "language"),
      extensions: checkedByService(createSpaceSchema, 1),
    }),
    editMode: t.field({ type: SpaceEditModeEnum, description: describeInputField(createSpaceSchema, "editMode") }),
    empty: t.boolean({ description: describeInputField(createSpaceSchema, "empty") }),
  }),
});

const UpdateSpaceInput = builder.inputType("UpdateSpaceInput", {
  description: "Changes to a space's settings; omitted fields stay as they are.",
  fields: (t) => ({
    title: t.string({ description: describeInputField(updateSpaceSchema, "title") }),
    emoji: t.string({ description: describeInputField(updateSpaceSchema, "emoji") }),
    editMode: t.field({ type: SpaceEditModeEnum, description: describeInputField(updateSpaceSchema, "editMode") }),
    defaultLevel: t.field({ type: RoleEnum, description: describeInputField(updateSpaceSchema, "defaultLevel") }),
    language: t.field({
      type: LanguageEnum,
      description: describeInputField(updateSpaceSchema, "language"),
      extensions: checkedByService(updateSpaceSchema, 1),
    }),
    mergeRules: t.field({ type: "JSON", description: describeInputField(updateSpaceSchema, "mergeRules") }),
  }),
});

const SpacePointerInput = builder.inputType("SpacePointerInput", {
  description: "A space, as a sibling to place another before or after.",
  fields: (t) => ({
    type: t.field({
      type: SpacePointerTypeEnum,
      required: true,
      description: describeInputField(spacePointerSchema, "type"),
      extensions: checkedByService(spacePointerSchema, 1),
    }),
    space: t.id({ required: true, description: describeInputField(spacePointerSchema, "space") }),
  }),
});

const MoveSpaceInput = builder.inputType("MoveSpaceInput", {
  description: "Where to move a space: give `parent`, `position` or both.",
  fields: (t) => ({
    parent: t.id({ description: describeInputField(moveSpaceSchema, "parent") }),
    position: t.field({
      type: builder.inputType("SpacePositionInput", {
        description: "Where to place a space among its siblings: before or after one of them.",
        fields: (p) => ({
          before: p.field({ type: SpacePointerInput, description: describeInputField(spacePositionSchema, "before") }),
          after: p.field({ type: SpacePointerInput, description: describeInputField(spacePositionSchema, "after") }),
        }),
      }),
      description: describeInputField(moveSpaceSchema, "position"),
    }),
  }),
});

const TransferSpaceInput = builder.inputType("TransferSpaceInput", {
  description: "The organization to move a space to.",
  fields: (t) => ({
    organization: t.id({ required: true, description: describeInputField(transferSpaceSchema, "organization") }),
  }),
});

const InviteToSpaceInput = builder.inputType("InviteToSpaceInput", {
  description: "A role to grant (or revoke) on a space, and to whom: give `users`, `teams` or both.",
  fields: (t) => ({
    role: t.field({ type: RoleEnum, description: describeInputField(inviteSchema, "role") }),
    users: t.idList({ description: describeInputField(inviteSchema, "users") }),
    teams: t.idList({ description: describeInputField(inviteSchema, "teams") }),
  }),
});

const CreateCollectionInput = builder.inputType("CreateCollectionInput", {
  description: "A new collection.",
  fields: (t) => ({
    title: t.string({ description: describeInputField(createCollectionSchema, "title") }),
    parent: t.id({ description: describeInputField(createCollectionSchema, "parent") }),
  }),
});

const CreateSpacePayloadRef = payloadType<{
  space: typeof SpaceRef.$inferType;
  spaceEdge: typeof SpaceEdgeRef.$inferType;
}>("createSpace", {
  space: { type: SpaceRef, description: "The new space." },
  spaceEdge: { type: SpaceEdgeRef, description: "The new space's edge in the organization's `spaces`." },
});

const UpdateSpacePayloadRef = payloadType<{ space: typeof SpaceRef.$inferType }>("updateSpace", {
  space: { type: SpaceRef, description: "The space, changed." },
});

const UpdateSpaceVisibilityPayloadRef = payloadType<{ space: typeof SpaceRef.$inferType }>("updateSpaceVisibility", {
  space: { type: SpaceRef, description: "The space, with its new visibility." },
});

const DeleteSpacePayloadRef = payloadType<{ deletedId: string }>("deleteSpace", {
  deletedId: { type: "ID", description: "The deleted space's id (for Relay's `@deleteRecord`)." },
});

const RestoreSpacePayloadRef = payloadType<{ space: typeof SpaceRef.$inferType }>("restoreSpace", {
  space: { type: SpaceRef, description: "The space, restored." },
});

const DuplicateSpacePayloadRef = payloadType<{
  space: typeof SpaceRef.$inferType;
  spaceEdge: typeof SpaceEdgeRef.$inferType;
}>("duplicateSpace", {
  space: { type: SpaceRef, description: "The copy." },
  spaceEdge: { type: SpaceEdgeRef, description: "The copy's edge in the organization's `spaces`." },
});

const MoveSpacePayloadRef = payloadType<{ space: typeof SpaceRef.$inferType; position: number }>("moveSpace", {
  space: { type: SpaceRef, description: "The moved space." },
  position: { type: "Int", description: "The space's new position among its siblings (the model's ordering key)." },
});

const TransferSpacePayloadRef = payloadType<{ space: typeof SpaceRef.$inferType }>("transferSpace", {
  space: { type: SpaceRef, description: "The space, now in the target organization." },
});

const InviteToSpacePayloadRef = payloadType<{ space: typeof SpaceRef.$inferType }>("inviteToSpace", {
  space: { type: SpaceRef, description: "The space whose grants changed." },
});

const CreateCollectionPayloadRef = payloadType<{
  collection: typeof CollectionRef.$inferType;
  collectionEdge: typeof CollectionEdgeRef.$inferType;
}>("createCollection", {
  collection: { type: CollectionRef, description: "The new collection." },
  collectionEdge: {
    type: CollectionEdgeRef,
    description: "The new collection's edge in the organization's `collections`.",
  },
});

builder.mutationFields((t) => {
  const spaceId = t.arg.id({ required: true, description: "The space's id." });
  const organizationId = t.arg.id({ required: true, description: "The organization's id." });
  return {
    createSpace: t.field({
      type: CreateSpacePayloadRef,
      ...describeMutation(
        "Creates an empty private space at the end of its parent; members get their organization role on it by " +
          "default and the creator an admin grant. Organization role create (createSpace).",
        {
          NOT_FOUND: "no such organization for the caller",
          FORBIDDEN: "below the create role",
          BAD_USER_INPUT: "invalid input, or an unknown parent collection",
        },
      ),
      args: {
        organizationId,
        input: t.arg({ type: CreateSpaceInput, description: "The new space; omitted: defaults." }),
      },
      resolve: async (_root, args, ctx) => {
        const space = await createSpace(ctx, args.organizationId, args.input ?? {});
        return { space, spaceEdge: edgeOf(spaceOrder, space) };
      },
    }),
    updateSpace: t.field({
      type: UpdateSpacePayloadRef,
      ...describeMutation("Changes a space's settings; admins of the space (updateSpaceById).", {
        NOT_FOUND: "no such space for the caller",
        FORBIDDEN: "not an admin of the space",
        BAD_USER_INPUT: "invalid input",
      }),
      args: { spaceId, input: t.arg({ type: UpdateSpaceInput, required: true, description: "The changes." }) },
      resolve: async (_root, args, ctx) => ({ space: await updateSpace(ctx, args.spaceId, args.input) }),
    }),
    updateSpaceVisibility: t.field({
      type: UpdateSpaceVisibilityPayloadRef,
      ...describeMutation("Sets who may see the space; admins of the space.", {
        NOT_FOUND: "no such space for the caller",
        FORBIDDEN: "not an admin of the space",
        BAD_USER_INPUT: "an unknown visibility, or in-collection outside a collection",
      }),
      args: {
        spaceId,
        visibility: t.arg({
          type: SpaceVisibilityEnum,
          required: true,
          description: "Who may see it; IN_COLLECTION only for a space in a collection.",
        }),
      },
      resolve: async (_root, args, ctx) => ({ space: await updateSpaceVisibility(ctx, args.spaceId, args.visibility) }),
    }),
    deleteSpace: t.field({
      type: DeleteSpacePayloadRef,
      ...describeMutation(
        "Soft delete: the space disappears everywhere and is restorable for 7 days. Admins of the space; deleting " +
          "a missing space succeeds. (deleteSpaceById).",
        { FORBIDDEN: "not an admin of the space" },
      ),
      args: { spaceId },
      resolve: async (_root, args, ctx) => {
        await deleteSpace(ctx, args.spaceId);
        return { deletedId: args.spaceId };
      },
    }),
    restoreSpace: t.field({
      type: RestoreSpacePayloadRef,
      ...describeMutation(
        "Restores a space deleted less than 7 days ago (a live space is returned as it is); admins of the space " +
          "(restoreSpace).",
        {
          NOT_FOUND: "no such space for the caller, or deleted more than 7 days ago",
          FORBIDDEN: "not an admin of the space",
        },
      ),
      args: { spaceId },
      resolve: async (_root, args, ctx) => ({ space: await restoreSpace(ctx, args.spaceId) }),
    }),
    duplicateSpace: t.field({
      type: DuplicateSpacePayloadRef,
      ...describeMutation(
        "Copies a space with its content, settings and grants, placed after the original; the copier becomes its " +
          "admin. Readers of the space with organization role create (duplicateSpace).",
        { NOT_FOUND: "no such space for the caller", FORBIDDEN: "below the create role" },
      ),
      args: { spaceId },
      resolve: async (_root, args, ctx) => {
        const space = await duplicateSpace(ctx, args.spaceId);
        return { space, spaceEdge: edgeOf(spaceOrder, space) };
      },
    }),
    moveSpace: t.field({
      type: MoveSpacePayloadRef,
      ...describeMutation(
        "Moves a space to another collection (or the root) and/or next to a sibling; admins of the space (moveSpace).",
        {
          NOT_FOUND: "no such space for the caller",
          FORBIDDEN: "not an admin of the space",
          BAD_USER_INPUT:
            "invalid input, a parent that is not a collection of the organization, or a sibling elsewhere",
        },
      ),
      args: { spaceId, input: t.arg({ type: MoveSpaceInput, required: true, description: "Where to move it." }) },
      resolve: async (_root, args, ctx) => {
        const space = await moveSpace(ctx, args.spaceId, args.input);
        return { space, position: space.position };
      },
    }),
    transferSpace: t.field({
      type: TransferSpacePayloadRef,
      ...describeMutation(
        "Moves a space to another organization, at its root: grants of users who are members there stay, team " +
          "grants go, and it leaves the old organization's sites. Admins of both organizations (transferSpace).",
        {
          NOT_FOUND: "no such space or target organization for the caller",
          FORBIDDEN: "not an admin of both organizations",
          BAD_USER_INPUT: "invalid input",
        },
      ),
      args: {
        spaceId,
        input: t.arg({ type: TransferSpaceInput, required: true, description: "The target organization." }),
      },
      resolve: async (_root, args, ctx) => ({ space: await transferSpace(ctx, args.spaceId, args.input) }),
    }),
    inviteToSpace: t.field({
      type: InviteToSpacePayloadRef,
      ...describeMutation(
        "Grants a role on the space to users and teams of its organization, or with role null revokes their " +
          "grants; admins of the space (inviteToSpace).",
        {
          NOT_FOUND: "no such space for the caller",
          FORBIDDEN: "not an admin of the space",
          BAD_USER_INPUT: "invalid input, or a user or team outside the organization",
        },
      ),
      args: {
        spaceId,
        input: t.arg({ type: InviteToSpaceInput, required: true, description: "The role and its grantees." }),
      },
      resolve: async (_root, args, ctx) => {
        await inviteToSpace(ctx, args.spaceId, args.input);
        return { space: await getSpace(ctx, args.spaceId) };
      },
    }),
    createCollection: t.field({
      type: CreateCollectionPayloadRef,
      ...describeMutation(
        "Creates a collection at the end of its parent; organization role create (createCollection).",
        {
          NOT_FOUND: "no such organization for the caller",
          FORBIDDEN: "below the create role",
          BAD_USER_INPUT: "invalid input, or an unknown parent collection",
        },
      ),
      args: {
        organizationId,
        input: t.arg({ type: CreateCollectionInput, description: "The new collection; omitted: defaults." }),
      },
      resolve: async (_root, args, ctx) => {
        const collection = await createCollection(ctx, args.organizationId, args.input ?? {});
        return { collection, collectionEdge: edgeOf(collectionOrder, collection) };
      },
    }),
  };
});
