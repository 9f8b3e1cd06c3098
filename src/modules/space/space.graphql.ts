import type { Readable } from "../../auth/readable.ts";
import type { Collection, Space } from "../../db/generated/client.ts";
import { builder } from "../../graphql/builder.ts";
import { publicEnum, RoleEnum } from "../../graphql/enums.ts";
import { idColumn } from "../../graphql/node-ids.ts";
import { readsOwnProperty } from "../../graphql/own-property.ts";
import { viewerCanFields } from "../../graphql/viewer-can.ts";
import {
  addOrganizationParent,
  memberParentOrganization,
  OrganizationRef,
} from "../organization/organization.public.ts";
import {
  collectionPermissions,
  getCollection,
  listCollections,
  loadVisibleCollections,
  parentCollection,
} from "./collection.service.ts";
import { getSpace, loadVisibleSpaces, spacePermissions } from "./space.access.ts";
import type { SpacePermissions } from "./space.policy.ts";
import { type MemberSpace, memberSpacePermission } from "./space.service.ts";
import { LanguageEnum, SpaceVisibilityEnum } from "./space-values.graphql.ts";

export const SpaceRef = builder.objectRef<Readable<Space>>("Space");

/** The viewer's permissions on a space as its own fields. */
const spaceViewerCan = {
  viewerCanView: ["view", "Whether the viewer may read the space (role read or more)."],
  viewerCanAccess: ["access", "Whether the viewer may open the space (role read or more)."],
  viewerCanComment: ["comment", "Whether the viewer may comment, reply and react (role comment or more)."],
  viewerCanEdit: [
    "edit",
    "Whether the viewer may edit content and create change requests (role edit or more, and the space not locked).",
  ],
  viewerCanReview: ["review", "Whether the viewer may review change requests (role review or more)."],
  viewerCanMerge: ["merge", "Whether the viewer may merge change requests (role review or more)."],
  viewerCanTriggerGitSync: ["triggerGitSync", "Whether the viewer may run Git sync (role create or more)."],
  viewerCanViewInviteLinks: ["viewInviteLinks", "Whether the viewer may see invite links (role create or more)."],
  viewerCanAdminister: [
    "admin",
    "Whether the viewer may change settings and grants, delete and move the space (role admin).",
  ],
  viewerCanInstallIntegration: [
    "installIntegration",
    "Whether the viewer may install integrations on the space (role admin).",
  ],
} as const satisfies Record<string, readonly [keyof SpacePermissions, string]>;

/**
 * The Space fields a `SpaceSummary` answers (no timestamps, merge rules or Git sync): nested lists whose items
 * select only these of their spaces read summaries (site.access.ts).
 */
export const spaceSummaryFields: ReadonlySet<string> = new Set([
  "__typename",
  "id",
  "title",
  "emoji",
  "visibility",
  "editMode",
  "defaultLevel",
  "language",
  "organizationId",
  "organization",
  "parentId",
  "parent",
  "revisionId",
  "revision",
  "deletedAt",
  "commentCount",
  "changeRequestCount",
  "changeRequestOpenCount",
  "changeRequestDraftCount",
  "urls",
  ...Object.keys(spaceViewerCan),
]);
export const CollectionRef = builder.objectRef<Collection>("Collection");

export const SpaceEditModeEnum = publicEnum("SpaceEditMode", "Whether a space's content may be edited.", {
  live: "Editors change the content directly or through change requests.",
  locked: "All edits are locked: nobody edits the content, whatever their role.",
});

const UrlsRef = builder.objectRef<{ location: string; app: string }>("ContentURLs").implement({
  description: "Where a space or collection is found.",
  fields: (t) => ({
    location: t.expose("location", { type: "URL", description: "Its URL in the REST API." }),
    app: t.expose("app", { type: "URL", description: "The URL of this GraphQL API, where it is managed." }),
  }),
});

builder.node(SpaceRef, {
  extensions: { restObjectName: "space" },
  description: "A space: a container of documentation content.",
  id: idColumn,
  loadMany: (ids, ctx) => loadVisibleSpaces(ctx, ids),
  fields: (t) => ({
    title: t.exposeString("title", { description: "The space's title (1..50 characters)." }),
    emoji: t.exposeString("emoji", { description: "An emoji shown with the title; empty when it has none." }),
    visibility: t.expose("visibility", { type: SpaceVisibilityEnum, description: "Who may see the space." }),
    organizationId: t.exposeID("organizationId", { description: "The organization's id (the id of `organization`)." }),
    organization: t.field({
      type: OrganizationRef,
      nullable: true,
      description: "The organization that owns it; null for a caller who is not its member (a public space).",
      resolve: (space, _args, ctx) => memberParentOrganization(ctx, space.organizationId),
    }),
    parentId: t.exposeID("parentId", {
      nullable: true,
      description: "Its collection's id (the id of `parent`); null at the root.",
    }),
    parent: t.field({
      type: CollectionRef,
      nullable: true,
      description: "Its collection; null at the root, or for a caller who may not read the collection.",
      resolve: (space, _args, ctx) => parentCollection(ctx, space.parentId),
    }),
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
      ...readsOwnProperty,
      resolve: (space) => space.editMode as "live" | "locked",
    }),
    mergeRules: t.expose("mergeRules", {
      type: "JSON",
      description:
        "What a change request needs to merge: `{type: inherit}` (the organization's), `{type: none}` or " +
        "`{type: rules, rules: [{rule, users?}]}`.",
    }),
    language: t.expose("language", {
      type: LanguageEnum,
      nullable: true,
      description: "The content's language code (en, fr, pt-br, ...); null when not set.",
    }),
    revisionId: t.exposeID("revisionId", {
      description: "Id of the active revision, the live content (the id of `revision`).",
    }),
    defaultLevel: t.expose("defaultLevel", {
      extensions: { restKeepsNull: true },
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
    ...viewerCanFields(t, (space, ctx) => spacePermissions(ctx, space), spaceViewerCan),
  }),
});

builder.node(CollectionRef, {
  extensions: { restObjectName: "collection" },
  description: "A collection: a folder of spaces (and collections) inside an organization.",
  id: idColumn,
  loadMany: (ids, ctx) => loadVisibleCollections(ctx, ids),
  fields: (t) => ({
    title: t.exposeString("title", { description: "The collection's title (1..50 characters)." }),
    description: t.exposeString("description", { nullable: true, description: "Its description; null if none." }),
    parentId: t.exposeID("parentId", {
      nullable: true,
      description: "The parent collection's id (the id of `parent`); null at the root.",
    }),
    parent: t.field({
      type: CollectionRef,
      nullable: true,
      description: "The parent collection; null at the root.",
      resolve: (collection, _args, ctx) => parentCollection(ctx, collection.parentId),
    }),
    defaultLevel: t.expose("defaultLevel", {
      extensions: { restKeepsNull: true },
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
    ...viewerCanFields(t, (collection, ctx) => collectionPermissions(ctx, collection), {
      viewerCanView: ["view", "Whether the viewer may read the collection (a member of the organization)."],
      viewerCanAdminister: ["admin", "Whether the viewer may administer it (organization admin)."],
      viewerCanViewInviteLinks: [
        "viewInviteLinks",
        "Whether the viewer may see invite links (organization role create or more).",
      ],
      viewerCanCreateContent: [
        "create",
        "Whether the viewer may create spaces and collections in it (organization role create or more).",
      ],
    }),
  }),
});

addOrganizationParent(CollectionRef);

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

/** The edge of an organization's `spaces` (space-list.graphql.ts), shared with the payloads that add a space. */
export const SpaceEdgeRef = builder.edgeObject({ type: SpaceRef, name: "OrganizationSpacesConnectionEdge" });

/** The edge of an organization's `collections`, shared with `createCollection`'s payload. */
export const CollectionEdgeRef = builder.edgeObject({
  type: CollectionRef,
  name: "OrganizationCollectionsConnectionEdge",
});

builder.objectFields(OrganizationRef, (t) => ({
  collections: t.connection(
    {
      type: CollectionRef,
      description:
        "The organization's collections, in order; organization members (listCollectionsInOrganizationById).",
      args: {
        nested: t.arg.boolean({ description: "Default true; false lists only the top-level collections." }),
      },
      resolve: (organization, args, ctx) => listCollections(ctx, organization.id, args.nested !== false, args),
    },
    {},
    CollectionEdgeRef,
  ),
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
