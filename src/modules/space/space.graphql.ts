import type { Collection, Space } from "../../db/generated/client.ts";
import { builder } from "../../graphql/builder.ts";
import { RoleEnum, SortOrderEnum } from "../../graphql/enums.ts";
import { MemberRef } from "../member/member.graphql.ts";
import { OrganizationRef } from "../organization/organization.graphql.ts";
import {
  collectionPermissions,
  createCollection,
  getCollection,
  listCollections,
  loadVisibleCollections,
} from "./collection.service.ts";
import { getSpace, loadVisibleSpaces, spacePermissions } from "./space.access.ts";
import {
  createSpace,
  deleteSpace,
  inviteToSpace,
  listMemberSpaces,
  listSpaces,
  type MemberSpace,
  memberSpacePermission,
  restoreSpace,
  updateSpace,
  updateSpaceVisibility,
} from "./space.service.ts";
import { duplicateSpace, moveSpace, transferSpace } from "./space-relocation.service.ts";

export const SpaceRef = builder.objectRef<Space>("Space");
const CollectionRef = builder.objectRef<Collection>("Collection");

const SpaceEditModeEnum = builder.enumType("SpaceEditMode", {
  description: "live: direct edits; locked: all edits are locked.",
  values: ["live", "locked"] as const,
});

const UrlsRef = builder.objectRef<{ location: string; app: string }>("ContentUrls").implement({
  fields: (t) => ({ location: t.exposeString("location"), app: t.exposeString("app") }),
});

type SpacePermissions = Awaited<ReturnType<typeof spacePermissions>>;
const SpacePermissionsRef = builder.objectRef<SpacePermissions>("SpacePermissions").implement({
  description: "What the viewer may do, from their effective role on the space.",
  fields: (t) => ({
    view: t.exposeBoolean("view"),
    access: t.exposeBoolean("access"),
    admin: t.exposeBoolean("admin"),
    viewInviteLinks: t.exposeBoolean("viewInviteLinks"),
    edit: t.exposeBoolean("edit"),
    triggerGitSync: t.exposeBoolean("triggerGitSync"),
    comment: t.exposeBoolean("comment"),
    merge: t.exposeBoolean("merge"),
    review: t.exposeBoolean("review"),
    installIntegration: t.exposeBoolean("installIntegration"),
  }),
});

builder.node(SpaceRef, {
  description: "A space: a container of documentation content.",
  id: { resolve: (space) => space.id },
  loadMany: (ids, ctx) => loadVisibleSpaces(ctx, ids),
  fields: (t) => ({
    title: t.exposeString("title"),
    emoji: t.exposeString("emoji"),
    visibility: t.exposeString("visibility", {
      description: "public, unlisted, share-link, visitor-auth, in-collection or private.",
    }),
    organization: t.exposeID("organizationId"),
    parent: t.exposeID("parentId", { nullable: true, description: "Id of the parent collection." }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
    deletedAt: t.expose("deletedAt", { type: "DateTime", nullable: true }),
    editMode: t.field({ type: SpaceEditModeEnum, resolve: (space) => space.editMode as "live" | "locked" }),
    mergeRules: t.field({ type: "JSON", resolve: (space) => space.mergeRules }),
    language: t.exposeString("language", { nullable: true, description: "A language code (en, fr, pt-br, ...)." }),
    revision: t.exposeString("revisionId", { description: "Id of the active revision." }),
    defaultLevel: t.expose("defaultLevel", {
      type: RoleEnum,
      nullable: true,
      description: "Role members get by default, capped at their organization role; null: explicit grants only.",
    }),
    commentCount: t.exposeInt("comments", { description: "Open comments." }),
    changeRequestCount: t.exposeInt("changeRequests", { description: "All change requests." }),
    changeRequestOpenCount: t.exposeInt("changeRequestsOpen", {
      description: "Open change requests.",
    }),
    changeRequestDraftCount: t.exposeInt("changeRequestsDraft", {
      description: "Draft change requests.",
    }),
    urls: t.field({
      type: UrlsRef,
      resolve: (space, _args, ctx) => ({
        location: `${ctx.config.publicUrl}/v1/spaces/${space.id}`,
        app: `${ctx.config.publicUrl}/graphql`,
      }),
    }),
    permissions: t.field({
      type: SpacePermissionsRef,
      resolve: (space, _args, ctx) => spacePermissions(ctx, space),
    }),
  }),
});

const CollectionPermissionsRef = builder
  .objectRef<{ view: boolean; admin: boolean; viewInviteLinks: boolean; create: boolean }>("CollectionPermissions")
  .implement({
    fields: (t) => ({
      view: t.exposeBoolean("view"),
      admin: t.exposeBoolean("admin"),
      viewInviteLinks: t.exposeBoolean("viewInviteLinks"),
      create: t.exposeBoolean("create"),
    }),
  });

builder.node(CollectionRef, {
  description: "A collection: a folder of spaces (and collections) inside an organization.",
  id: { resolve: (collection) => collection.id },
  loadMany: (ids, ctx) => loadVisibleCollections(ctx, ids),
  fields: (t) => ({
    title: t.exposeString("title"),
    description: t.exposeString("description", { nullable: true }),
    organization: t.exposeID("organizationId"),
    parent: t.exposeID("parentId", { nullable: true, description: "Id of the parent collection." }),
    defaultLevel: t.expose("defaultLevel", { type: RoleEnum, nullable: true }),
    urls: t.field({
      type: UrlsRef,
      resolve: (collection, _args, ctx) => ({
        location: `${ctx.config.publicUrl}/v1/collections/${collection.id}`,
        app: `${ctx.config.publicUrl}/graphql`,
      }),
    }),
    permissions: t.field({
      type: CollectionPermissionsRef,
      resolve: (collection, _args, ctx) => collectionPermissions(ctx, collection),
    }),
  }),
});

const MemberSpaceRef = builder.objectRef<MemberSpace>("MemberContentPermission").implement({
  description: "A space a member holds an explicit grant on, with their highest granted role.",
  fields: (t) => ({
    permission: t.field({ type: RoleEnum, resolve: (row, _args, ctx) => memberSpacePermission(ctx, row) }),
    space: t.field({ type: SpaceRef, resolve: (row) => row.space }),
  }),
});

builder.objectFields(OrganizationRef, (t) => ({
  spaces: t.connection({
    type: SpaceRef,
    description: "listSpacesInOrganizationById: the spaces the viewer can see, never deleted ones.",
    resolve: (organization, args, ctx) => listSpaces(ctx, organization.id, args),
  }),
  collections: t.connection({
    type: CollectionRef,
    description: "listCollectionsInOrganizationById",
    args: {
      nested: t.arg.boolean({ description: "Default true; false lists only the top-level collections." }),
    },
    resolve: (organization, args, ctx) => listCollections(ctx, organization.id, args.nested !== false, args),
  }),
}));

builder.objectFields(MemberRef, (t) => ({
  spaces: t.connection({
    type: MemberSpaceRef,
    description: "listSpacesForOrganizationMember: spaces the member holds a user or team grant on.",
    args: { order: t.arg({ type: SortOrderEnum, description: "By creation date; default desc." }) },
    resolve: (member, args, ctx) => listMemberSpaces(ctx, member.organizationId, member.userId, args, args.order),
  }),
}));

builder.queryFields((t) => ({
  space: t.field({
    type: SpaceRef,
    description: "getSpaceById",
    args: {
      id: t.arg.id({ required: true }),
      shareKey: t.arg.string({
        description: "Accepted for published URLs of share-link sites; access is the viewer's.",
      }),
    },
    resolve: (_root, args, ctx) => getSpace(ctx, String(args.id)),
  }),
  collection: t.field({
    type: CollectionRef,
    description: "getCollectionById",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => getCollection(ctx, String(args.id)),
  }),
}));

const CreateSpaceInput = builder.inputType("CreateSpaceInput", {
  fields: (t) => ({
    title: t.string({ description: "At most 50 characters; default Untitled." }),
    emoji: t.string(),
    parent: t.id({ description: "Parent collection id." }),
    language: t.string({ description: "A language code (en, fr, pt-br, ...)." }),
    editMode: t.field({ type: SpaceEditModeEnum }),
    empty: t.boolean({ description: "Create an empty space (the only kind of content created)." }),
  }),
});

const UpdateSpaceInput = builder.inputType("UpdateSpaceInput", {
  fields: (t) => ({
    title: t.string({ description: "1..50 characters." }),
    emoji: t.string({ description: "At most 50 characters; null removes it." }),
    editMode: t.field({ type: SpaceEditModeEnum }),
    defaultLevel: t.field({ type: RoleEnum, description: "Null: only explicit grants give access." }),
    language: t.string({ description: "A language code (en, fr, pt-br, ...); null removes it." }),
    mergeRules: t.field({ type: "JSON", description: "{type: inherit} | {type: rules, rules} | {type: none}" }),
  }),
});

const SpacePointerInput = builder.inputType("SpacePointerInput", {
  fields: (t) => ({ type: t.string({ required: true, description: "space" }), space: t.id({ required: true }) }),
});

const MoveSpaceInput = builder.inputType("MoveSpaceInput", {
  fields: (t) => ({
    parent: t.id({ description: "Parent collection id; null moves the space to the root." }),
    position: t.field({
      type: builder.inputType("SpacePositionInput", {
        fields: (p) => ({
          before: p.field({ type: SpacePointerInput }),
          after: p.field({ type: SpacePointerInput }),
        }),
      }),
      description: "Next to a sibling; by default at the end.",
    }),
  }),
});

const TransferSpaceInput = builder.inputType("TransferSpaceInput", {
  fields: (t) => ({ organization: t.id({ required: true, description: "Target organization id." }) }),
});

const InviteToSpaceInput = builder.inputType("InviteToSpaceInput", {
  fields: (t) => ({
    role: t.field({ type: RoleEnum, description: "Role to grant; null removes the grants of these users and teams." }),
    users: t.stringList({ description: "User ids (members of the space's organization)." }),
    teams: t.stringList({ description: "Team ids of the space's organization." }),
  }),
});

const CreateCollectionInput = builder.inputType("CreateCollectionInput", {
  fields: (t) => ({
    title: t.string({ description: "At most 50 characters." }),
    parent: t.id({ description: "Parent collection id." }),
  }),
});

builder.mutationFields((t) => {
  const spaceId = t.arg.id({ required: true });
  return {
    createSpace: t.field({
      type: SpaceRef,
      args: { organizationId: t.arg.id({ required: true }), input: t.arg({ type: CreateSpaceInput }) },
      resolve: (_root, args, ctx) => createSpace(ctx, String(args.organizationId), args.input ?? {}),
    }),
    updateSpaceById: t.field({
      type: SpaceRef,
      args: { spaceId, input: t.arg({ type: UpdateSpaceInput, required: true }) },
      resolve: (_root, args, ctx) => updateSpace(ctx, String(args.spaceId), args.input),
    }),
    updateSpaceVisibility: t.field({
      type: SpaceRef,
      description: "Sets who may see the space: public, unlisted, share-link, visitor-auth, in-collection, private.",
      args: { spaceId, visibility: t.arg.string({ required: true }) },
      resolve: (_root, args, ctx) => updateSpaceVisibility(ctx, String(args.spaceId), args.visibility),
    }),
    deleteSpaceById: t.boolean({
      description: "Soft delete (restorable for 7 days); deleting a missing space succeeds.",
      args: { spaceId },
      resolve: async (_root, args, ctx) => {
        await deleteSpace(ctx, String(args.spaceId));
        return true;
      },
    }),
    restoreSpace: t.field({
      type: SpaceRef,
      args: { spaceId },
      resolve: (_root, args, ctx) => restoreSpace(ctx, String(args.spaceId)),
    }),
    duplicateSpace: t.field({
      type: SpaceRef,
      args: { spaceId },
      resolve: (_root, args, ctx) => duplicateSpace(ctx, String(args.spaceId)),
    }),
    moveSpace: t.field({
      type: SpaceRef,
      args: { spaceId, input: t.arg({ type: MoveSpaceInput, required: true }) },
      resolve: (_root, args, ctx) => moveSpace(ctx, String(args.spaceId), args.input),
    }),
    transferSpace: t.field({
      type: SpaceRef,
      args: { spaceId, input: t.arg({ type: TransferSpaceInput, required: true }) },
      resolve: (_root, args, ctx) => transferSpace(ctx, String(args.spaceId), args.input),
    }),
    inviteToSpace: t.boolean({
      description: "Grants a role on the space to users and teams (space admins).",
      args: { spaceId, input: t.arg({ type: InviteToSpaceInput, required: true }) },
      resolve: async (_root, args, ctx) => {
        await inviteToSpace(ctx, String(args.spaceId), args.input);
        return true;
      },
    }),
    createCollection: t.field({
      type: CollectionRef,
      args: { organizationId: t.arg.id({ required: true }), input: t.arg({ type: CreateCollectionInput }) },
      resolve: (_root, args, ctx) => createCollection(ctx, String(args.organizationId), args.input ?? {}),
    }),
  };
});
