import type { Collection, Space } from "../../db/generated/client.ts";
import { builder } from "../../graphql/builder.ts";
import { publicEnum, RoleEnum } from "../../graphql/enums.ts";
import { describeInputField } from "../../graphql/input-description.ts";
import { OrganizationRef } from "../organization/organization.graphql.ts";
import {
  collectionPermissions,
  createCollection,
  createCollectionSchema,
  getCollection,
  listCollections,
  loadVisibleCollections,
} from "./collection.service.ts";
import { getSpace, loadVisibleSpaces, spacePermissions } from "./space.access.ts";
import {
  createSpace,
  createSpaceSchema,
  deleteSpace,
  inviteSchema,
  inviteToSpace,
  type MemberSpace,
  memberSpacePermission,
  restoreSpace,
  updateSpace,
  updateSpaceSchema,
  updateSpaceVisibility,
} from "./space.service.ts";
import {
  duplicateSpace,
  moveSpace,
  moveSpaceSchema,
  spacePointerSchema,
  spacePositionSchema,
  transferSpace,
  transferSpaceSchema,
} from "./space-relocation.service.ts";
import { LanguageEnum, SpaceVisibilityEnum } from "./space-values.graphql.ts";

export const SpaceRef = builder.objectRef<Space>("Space");
const CollectionRef = builder.objectRef<Collection>("Collection");

const SpaceEditModeEnum = publicEnum("SpaceEditMode", "Whether a space's content may be edited.", {
  live: "Editors change the content directly or through change requests.",
  locked: "All edits are locked: nobody edits the content, whatever their role.",
});

const UrlsRef = builder.objectRef<{ location: string; app: string }>("ContentUrls").implement({
  description: "Where a space or collection is found.",
  fields: (t) => ({
    location: t.exposeString("location", { description: "Its URL in the REST API." }),
    app: t.exposeString("app", { description: "The URL of this GraphQL API, where it is managed." }),
  }),
});

type SpacePermissions = Awaited<ReturnType<typeof spacePermissions>>;
const SpacePermissionsRef = builder.objectRef<SpacePermissions>("SpacePermissions").implement({
  description: "What the viewer may do, from their effective role on the space.",
  fields: (t) => ({
    view: t.exposeBoolean("view", { description: "Read the space (role read or more)." }),
    access: t.exposeBoolean("access", { description: "Open the space (role read or more)." }),
    admin: t.exposeBoolean("admin", { description: "Change settings, grants, delete, move (role admin)." }),
    viewInviteLinks: t.exposeBoolean("viewInviteLinks", { description: "See invite links (role create or more)." }),
    edit: t.exposeBoolean("edit", {
      description: "Edit content and create change requests (role edit or more, and the space not locked).",
    }),
    triggerGitSync: t.exposeBoolean("triggerGitSync", { description: "Run Git sync (role create or more)." }),
    comment: t.exposeBoolean("comment", { description: "Comment, reply and react (role comment or more)." }),
    merge: t.exposeBoolean("merge", { description: "Merge change requests (role review or more)." }),
    review: t.exposeBoolean("review", { description: "Review change requests (role review or more)." }),
    installIntegration: t.exposeBoolean("installIntegration", {
      description: "Install integrations on the space (role admin).",
    }),
  }),
});

builder.node(SpaceRef, {
  description: "A space: a container of documentation content.",
  id: { resolve: (space) => space.id },
  loadMany: (ids, ctx) => loadVisibleSpaces(ctx, ids),
  fields: (t) => ({
    title: t.exposeString("title", { description: "The space's title (1..50 characters)." }),
    emoji: t.exposeString("emoji", { description: "An emoji shown with the title; empty when it has none." }),
    visibility: t.expose("visibility", { type: SpaceVisibilityEnum, description: "Who may see the space." }),
    organization: t.exposeID("organizationId", { description: "Id of the organization that owns it." }),
    parent: t.exposeID("parentId", { nullable: true, description: "Id of its collection; null at the root." }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When it was created (ISO 8601)." }),
    updatedAt: t.expose("updatedAt", {
      type: "DateTime",
      description: "When its settings last changed (ISO 8601).",
    }),
    deletedAt: t.expose("deletedAt", {
      type: "DateTime",
      nullable: true,
      description: "When it was deleted (ISO 8601), restorable for 7 days after; null while it is live.",
    }),
    editMode: t.field({
      type: SpaceEditModeEnum,
      description: "Whether its content may be edited.",
      resolve: (space) => space.editMode as "live" | "locked",
    }),
    mergeRules: t.field({
      type: "JSON",
      description:
        "What a change request needs to merge: `{type: inherit}` (the organization's), `{type: none}` or " +
        "`{type: rules, rules: [{rule, users?}]}`.",
      resolve: (space) => space.mergeRules,
    }),
    language: t.expose("language", {
      type: LanguageEnum,
      nullable: true,
      description: "The content's language code (en, fr, pt-br, ...); null when not set.",
    }),
    revision: t.exposeID("revisionId", { description: "Id of the active revision: the live content." }),
    defaultLevel: t.expose("defaultLevel", {
      type: RoleEnum,
      nullable: true,
      description: "Role members get by default, capped at their organization role; null: explicit grants only.",
    }),
    commentCount: t.exposeInt("comments", { description: "Number of open comments." }),
    changeRequestCount: t.exposeInt("changeRequests", { description: "Number of change requests, in any status." }),
    changeRequestOpenCount: t.exposeInt("changeRequestsOpen", {
      description: "Number of open change requests.",
    }),
    changeRequestDraftCount: t.exposeInt("changeRequestsDraft", {
      description: "Number of draft change requests.",
    }),
    urls: t.field({
      type: UrlsRef,
      description: "Where the space is found.",
      resolve: (space, _args, ctx) => ({
        location: `${ctx.config.publicUrl}/v1/spaces/${space.id}`,
        app: `${ctx.config.publicUrl}/graphql`,
      }),
    }),
    permissions: t.field({
      type: SpacePermissionsRef,
      description: "What the viewer may do on the space.",
      resolve: (space, _args, ctx) => spacePermissions(ctx, space),
    }),
  }),
});

const CollectionPermissionsRef = builder
  .objectRef<{ view: boolean; admin: boolean; viewInviteLinks: boolean; create: boolean }>("CollectionPermissions")
  .implement({
    description: "What the viewer may do, from their role in the collection's organization.",
    fields: (t) => ({
      view: t.exposeBoolean("view", { description: "Read the collection (a member of the organization)." }),
      admin: t.exposeBoolean("admin", { description: "Administer it (organization admin)." }),
      viewInviteLinks: t.exposeBoolean("viewInviteLinks", {
        description: "See invite links (organization role create or more).",
      }),
      create: t.exposeBoolean("create", {
        description: "Create spaces and collections in it (organization role create or more).",
      }),
    }),
  });

builder.node(CollectionRef, {
  description: "A collection: a folder of spaces (and collections) inside an organization.",
  id: { resolve: (collection) => collection.id },
  loadMany: (ids, ctx) => loadVisibleCollections(ctx, ids),
  fields: (t) => ({
    title: t.exposeString("title", { description: "The collection's title (1..50 characters)." }),
    description: t.exposeString("description", { nullable: true, description: "Its description; null if none." }),
    organization: t.exposeID("organizationId", { description: "Id of the organization that owns it." }),
    parent: t.exposeID("parentId", { nullable: true, description: "Id of the parent collection; null at the root." }),
    defaultLevel: t.expose("defaultLevel", {
      type: RoleEnum,
      nullable: true,
      description:
        "Role members get by default on its `in-collection` spaces, capped at their organization role; null: none.",
    }),
    urls: t.field({
      type: UrlsRef,
      description: "Where the collection is found.",
      resolve: (collection, _args, ctx) => ({
        location: `${ctx.config.publicUrl}/v1/collections/${collection.id}`,
        app: `${ctx.config.publicUrl}/graphql`,
      }),
    }),
    permissions: t.field({
      type: CollectionPermissionsRef,
      description: "What the viewer may do with the collection.",
      resolve: (collection, _args, ctx) => collectionPermissions(ctx, collection),
    }),
  }),
});

export const MemberSpaceRef = builder.objectRef<MemberSpace>("MemberContentPermission").implement({
  description: "A space a member holds an explicit grant on, with their highest granted role.",
  fields: (t) => ({
    permission: t.field({
      type: RoleEnum,
      description: "The member's highest role granted on the space, directly or through a team.",
      resolve: (row, _args, ctx) => memberSpacePermission(ctx, row),
    }),
    space: t.field({ type: SpaceRef, description: "The space.", resolve: (row) => row.space }),
  }),
});

builder.objectFields(OrganizationRef, (t) => ({
  collections: t.connection({
    type: CollectionRef,
    description: "The organization's collections, in order; organization members (listCollectionsInOrganizationById).",
    args: {
      nested: t.arg.boolean({ description: "Default true; false lists only the top-level collections." }),
    },
    resolve: (organization, args, ctx) => listCollections(ctx, organization.id, args.nested !== false, args),
  }),
}));

builder.queryFields((t) => ({
  space: t.field({
    type: SpaceRef,
    description: "A space the viewer may read (role read, or any caller for public and unlisted ones) (getSpaceById).",
    args: {
      id: t.arg.id({ required: true, description: "The space's id." }),
      shareKey: t.arg.string({
        description: "Accepted for published URLs of share-link sites; access is the viewer's.",
      }),
    },
    resolve: (_root, args, ctx) => getSpace(ctx, args.id),
  }),
  collection: t.field({
    type: CollectionRef,
    description: "A collection of an organization the viewer is a member of (getCollectionById).",
    args: { id: t.arg.id({ required: true, description: "The collection's id." }) },
    resolve: (_root, args, ctx) => getCollection(ctx, args.id),
  }),
}));

const CreateSpaceInput = builder.inputType("CreateSpaceInput", {
  description: "A new space.",
  fields: (t) => ({
    title: t.string({ description: describeInputField(createSpaceSchema, "title") }),
    emoji: t.string({ description: describeInputField(createSpaceSchema, "emoji") }),
    parent: t.id({ description: describeInputField(createSpaceSchema, "parent") }),
    language: t.string({ description: describeInputField(createSpaceSchema, "language") }),
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
    language: t.string({ description: describeInputField(updateSpaceSchema, "language") }),
    mergeRules: t.field({ type: "JSON", description: describeInputField(updateSpaceSchema, "mergeRules") }),
  }),
});

const SpacePointerInput = builder.inputType("SpacePointerInput", {
  description: "A space, as a sibling to place another before or after.",
  fields: (t) => ({
    type: t.string({ required: true, description: describeInputField(spacePointerSchema, "type") }),
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

builder.mutationFields((t) => {
  const spaceId = t.arg.id({ required: true, description: "The space's id." });
  const organizationId = t.arg.id({ required: true, description: "The organization's id." });
  return {
    createSpace: t.field({
      type: SpaceRef,
      description:
        "Creates an empty private space at the end of its parent; members get their organization role on it by " +
        "default and the creator an admin grant. Organization role create (createSpace).",
      args: {
        organizationId,
        input: t.arg({ type: CreateSpaceInput, description: "The new space; omitted: defaults." }),
      },
      resolve: (_root, args, ctx) => createSpace(ctx, args.organizationId, args.input ?? {}),
    }),
    updateSpaceById: t.field({
      type: SpaceRef,
      description: "Changes a space's settings; admins of the space (updateSpaceById).",
      args: { spaceId, input: t.arg({ type: UpdateSpaceInput, required: true, description: "The changes." }) },
      resolve: (_root, args, ctx) => updateSpace(ctx, args.spaceId, args.input),
    }),
    updateSpaceVisibility: t.field({
      type: SpaceRef,
      description: "Sets who may see the space; admins of the space.",
      args: {
        spaceId,
        visibility: t.arg.string({
          required: true,
          description:
            "public, unlisted, share-link, visitor-auth, in-collection (only for a space in a collection) or private.",
        }),
      },
      resolve: (_root, args, ctx) => updateSpaceVisibility(ctx, args.spaceId, args.visibility),
    }),
    deleteSpaceById: t.boolean({
      description:
        "Soft delete: the space disappears everywhere and is restorable for 7 days. Admins of the space; deleting " +
        "a missing space succeeds. Always true (deleteSpaceById).",
      args: { spaceId },
      resolve: async (_root, args, ctx) => {
        await deleteSpace(ctx, args.spaceId);
        return true;
      },
    }),
    restoreSpace: t.field({
      type: SpaceRef,
      description:
        "Restores a space deleted less than 7 days ago (a live space is returned as it is); admins of the space " +
        "(restoreSpace).",
      args: { spaceId },
      resolve: (_root, args, ctx) => restoreSpace(ctx, args.spaceId),
    }),
    duplicateSpace: t.field({
      type: SpaceRef,
      description:
        "Copies a space with its content, settings and grants, placed after the original; the copier becomes its " +
        "admin. Readers of the space with organization role create (duplicateSpace).",
      args: { spaceId },
      resolve: (_root, args, ctx) => duplicateSpace(ctx, args.spaceId),
    }),
    moveSpace: t.field({
      type: SpaceRef,
      description:
        "Moves a space to another collection (or the root) and/or next to a sibling; admins of the space (moveSpace).",
      args: { spaceId, input: t.arg({ type: MoveSpaceInput, required: true, description: "Where to move it." }) },
      resolve: (_root, args, ctx) => moveSpace(ctx, args.spaceId, args.input),
    }),
    transferSpace: t.field({
      type: SpaceRef,
      description:
        "Moves a space to another organization, at its root: grants of users who are members there stay, team " +
        "grants go, and it leaves the old organization's sites. Admins of both organizations (transferSpace).",
      args: {
        spaceId,
        input: t.arg({ type: TransferSpaceInput, required: true, description: "The target organization." }),
      },
      resolve: (_root, args, ctx) => transferSpace(ctx, args.spaceId, args.input),
    }),
    inviteToSpace: t.boolean({
      description:
        "Grants a role on the space to users and teams of its organization, or with role null revokes their " +
        "grants; admins of the space. Always true (inviteToSpace).",
      args: {
        spaceId,
        input: t.arg({ type: InviteToSpaceInput, required: true, description: "The role and its grantees." }),
      },
      resolve: async (_root, args, ctx) => {
        await inviteToSpace(ctx, args.spaceId, args.input);
        return true;
      },
    }),
    createCollection: t.field({
      type: CollectionRef,
      description: "Creates a collection at the end of its parent; organization role create (createCollection).",
      args: {
        organizationId,
        input: t.arg({ type: CreateCollectionInput, description: "The new collection; omitted: defaults." }),
      },
      resolve: (_root, args, ctx) => createCollection(ctx, args.organizationId, args.input ?? {}),
    }),
  };
});
