import type { ChangeRequest } from "../../db/generated/client.ts";
import { builder } from "../../graphql/builder.ts";
import { deprecatedNamesRemovedIn } from "../../graphql/deprecations.ts";
import { publicEnum } from "../../graphql/enums.ts";
import { describeInputField } from "../../graphql/input-description.ts";
import { dateBoundFields, orderByDescription, orderInput, timeRangeKeys } from "../../graphql/list-order.ts";
import { idColumn } from "../../graphql/node-ids.ts";
import { readsOwnProperty } from "../../graphql/own-property.ts";
import { itemsSelectAny } from "../../graphql/selection.ts";
import { viewerCanFields } from "../../graphql/viewer-can.ts";
import { mapNodes } from "../../paging/pagination.ts";
import {
  computedDescription,
  metadataDescription,
  RevisionRef,
  revisionOf,
  revisionRead,
} from "../content/content.public.ts";
import { OrganizationRef } from "../organization/organization.public.ts";
import { parentSpace, SpaceRef } from "../space/space.public.ts";
import { UserRef, userByIdLoader } from "../user/user.public.ts";
import { changeRequestByIdLoader, parentChangeRequest } from "./change-request.loaders.ts";
import {
  type ChangeRequestFilters,
  changeRequestFiltersSchema,
  getChangeRequest,
  listChangeRequests,
  listContributors,
  loadVisibleChangeRequests,
} from "./change-request.service.ts";
import { changeRequestCreator, changeRequestPermissions, isOutdated } from "./change-request-fields.service.ts";
import { changeRequestFilterSchema, changeRequestListOrder } from "./change-request-list.ts";
import { changeRequestPdf } from "./change-request-pdf.service.ts";

export const ChangeRequestRef = builder.objectRef<ChangeRequest>("ChangeRequest");

/** The viewer's permissions on a change request as its own fields. */
const changeRequestViewerCan = {
  viewerCanEdit: ["edit", "Whether the viewer may write content: edit role, and the space is not locked."],
  viewerCanReview: ["review", "Whether the viewer may review it: review role."],
  viewerCanMerge: [
    "merge",
    "Whether the viewer may merge it: review role, and the space is not locked (merge rules still apply).",
  ],
} as const;

/** The fields that read other rows (change-request-fields.service.ts): a list settles them when one is selected. */
const changeRequestFieldsReadingRelations: ReadonlySet<string> = new Set([
  "createdBy",
  "outdated",
  ...Object.keys(changeRequestViewerCan),
]);

export const ChangeRequestStatusEnum = publicEnum("ChangeRequestStatus", "Where a change request is in its life.", {
  draft: "Being written; takes content, reviews and merges like open.",
  open: "Ready for review; takes content, reviews and merges.",
  archived: "Closed without merging; reopen it (status open) to change it.",
  merged: "Merged into the space; final.",
});

const ChangeRequestOrderByEnum = publicEnum(
  "ChangeRequestOrderBy",
  "The time change requests are listed by, newest first.",
  {
    updatedAt: "When each last changed.",
    createdAt: "When each was created.",
  },
);

/** Who the change request is addressed by in every write and subscription: its space, and its id or number. */
export const changeRequestArgs = builder.args((t) => ({
  spaceId: t.id({ required: true, description: "The change request's space." }),
  changeRequestId: t.id({ required: true, description: "The change request's id, or its number in the space." }),
}));
/** A mutation's: `spaceId` optional, since the change request's id names it (`changeRequestSpaceId`). */
export const changeRequestByIdArgs = builder.args((t) => ({
  spaceId: t.id({
    description:
      "The change request's space. Optional: the change request's id names it (its number does not); when given " +
      "and not its space, NOT_FOUND.",
  }),
  changeRequestId: t.id({
    required: true,
    description: "The change request's id, or its number in the space when `spaceId` is given.",
  }),
}));

builder.node(ChangeRequestRef, {
  description:
    "Proposed edits to a space, on their own revisions, merged back when ready. Readable by whoever may read the " +
    "space.",
  id: idColumn,
  loadMany: (ids, ctx) => loadVisibleChangeRequests(ctx, ids),
  fields: (t) => ({
    number: t.exposeInt("number", { description: "Its number in the space: 1, 2, … in order of creation." }),
    status: t.field({
      type: ChangeRequestStatusEnum,
      description: "Where it is in its life.",
      ...readsOwnProperty,
      resolve: (row) => row.status as "open",
    }),
    subject: t.exposeString("subject", { description: "Its title (empty when none was given)." }),
    description: t.expose("description", {
      type: "JSON",
      nullable: true,
      description: "What the change is about, as a rich-text document; null when none.",
    }),
    createdBy: t.field({
      type: UserRef,
      nullable: true,
      description: "Who created it; null when that user was deleted.",
      resolve: (row, _args, ctx) => changeRequestCreator(ctx, row),
    }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When it was created." }),
    updatedAt: t.expose("updatedAt", { type: "DateTime", description: "When it, or its content, last changed." }),
    spaceId: t.exposeID("spaceId", { description: "Id of the space (the id of `space`)." }),
    space: t.field({
      type: SpaceRef,
      description: "The space it changes.",
      resolve: (row, _args, ctx) => parentSpace(ctx, row.spaceId),
    }),
    revisionId: t.exposeID("revisionId", { description: "Id of its active revision (the id of `revision`)." }),
    revision: t.field({
      type: RevisionRef,
      description: "Its active revision: the content it proposes.",
      resolve: (row, _args, ctx) => revisionOf(ctx, row.revisionId),
    }),
    revisionInitial: t.exposeString("revisionInitial", { description: "The space revision it was created from." }),
    revisionMergedAncestor: t.exposeString("revisionMergedAncestor", {
      nullable: true,
      description: "The space revision it last took in (update).",
    }),
    revisionMerged: t.exposeString("revisionMerged", { nullable: true, description: "The revision its merge made." }),
    comments: t.exposeInt("comments", { description: "Open (unresolved) comment threads." }),
    outdated: t.boolean({
      description: "True when the space moved on since the change request last took in its content.",
      resolve: (row, _args, ctx) => isOutdated(ctx, row),
    }),
    urls: t.field({
      type: builder.objectRef<{ app: string; location: string }>("ChangeRequestURLs").implement({
        description: "Addresses of a change request.",
        fields: (u) => ({
          app: u.expose("app", { type: "URL", description: "This server's GraphQL endpoint, where it is edited." }),
          location: u.expose("location", { type: "URL", description: "The change request on this server's API." }),
        }),
      }),
      description: "Where the change request is.",
      resolve: (row, _args, ctx) => ({
        app: `${ctx.config.publicUrl}/graphql`,
        location: `${ctx.config.publicUrl}/v1/spaces/${row.spaceId}/change-requests/${row.id}`,
      }),
    }),
    ...viewerCanFields(t, (row, ctx) => changeRequestPermissions(ctx, row), changeRequestViewerCan),
    content: t.field({
      type: RevisionRef,
      description: "The change request's active revision (getRevisionOfChangeRequestById).",
      args: {
        metadata: t.arg.boolean({ description: metadataDescription }),
        computed: t.arg.boolean({ description: computedDescription }),
      },
      resolve: async (row, args, ctx) => revisionRead(await revisionOf(ctx, row.revisionId), args),
    }),
    pdf: t.field({
      type: builder.objectRef<{ url: string }>("ChangeRequestPDF").implement({
        description: "A link to a PDF of the change request's content.",
        fields: (p) => ({
          url: p.expose("url", { type: "URL", description: "Opens the PDF without a token for an hour." }),
        }),
      }),
      description: "A PDF of its content, or of one page (getChangeRequestPDF).",
      // The link it makes renders the whole revision (estimateCost units, src/lib/query-cost.ts).
      extensions: { cost: { weight: 20_000 } },
      args: {
        only: t.arg.boolean({ description: "Only the given page, without its subpages." }),
        page: t.arg.id({ description: "A page id: that page (and its subpages unless only)." }),
      },
      resolve: (row, args, ctx) => changeRequestPdf(ctx, row, args),
    }),
    contributors: t.connection({
      type: UserRef,
      description: "Users who wrote content into the change request, first to write first.",
      resolve: async (row, args, ctx) => {
        const page = await listContributors(ctx, row, args);
        const users = await userByIdLoader(ctx).loadMany(page.edges.map((edge) => edge.node.userId));
        return mapNodes(page, (contributor, index) => {
          const user = users[index];
          // Contributions are deleted with their user (cascade), so a listed contributor's user is there.
          if (!user || user instanceof Error) throw new Error(`User ${contributor.userId} is missing`);
          return user;
        });
      },
    }),
  }),
});

const filter = (key: keyof typeof changeRequestFiltersSchema.shape) =>
  describeInputField(changeRequestFiltersSchema, key);

const ChangeRequestOrderInput = orderInput("ChangeRequest", "change requests", changeRequestListOrder.fields);

const ChangeRequestFilterInput = builder.inputType("ChangeRequestFilter", {
  description: "Conditions on the change requests listed, all of which must hold.",
  fields: (t) => ({
    subjectContains: t.string({ description: describeInputField(changeRequestFilterSchema, "subjectContains") }),
    ...dateBoundFields(t, changeRequestFilterSchema, timeRangeKeys),
  }),
});

const filterArgs = builder.args((t) => ({
  status: t.field({ type: ChangeRequestStatusEnum, description: filter("status") }),
  creator: t.id({ description: filter("creator") }),
  contributor: t.id({ description: filter("contributor") }),
  requestedReviewer: t.id({ description: filter("requestedReviewer") }),
  orderBy: t.field({
    type: [ChangeRequestOrderInput],
    description: orderByDescription("newest first by `orderByTime`, or by updatedAt; wins over `orderByTime`"),
  }),
  orderByKeys: t.field({
    type: [ChangeRequestOrderInput],
    description: "Former name of `orderBy`; `orderBy` wins over it.",
    deprecationReason: `Use orderBy. Removed in ${deprecatedNamesRemovedIn}.`,
  }),
  // REST's `orderBy` query parameter passes its enum through here, as the members list's REST route does `sort`.
  orderByTime: t.field({
    type: ChangeRequestOrderByEnum,
    description: filter("orderBy"),
    deprecationReason: `Use orderBy. Removed in ${deprecatedNamesRemovedIn}.`,
  }),
  filter: t.field({ type: ChangeRequestFilterInput, description: "Conditions on the change requests listed." }),
}));

type OrderKeys = { field: string; direction: string }[] | null;

const listArgsOf = (args: { orderBy?: OrderKeys; orderByKeys?: OrderKeys; filter?: unknown }) => ({
  orderBy: args.orderBy ?? args.orderByKeys,
  filter: args.filter,
});

const filtersOf = (
  args: { [Key in Exclude<keyof ChangeRequestFilters, "orderBy">]?: ChangeRequestFilters[Key] } & {
    orderByTime?: ChangeRequestFilters["orderBy"];
  },
) => ({
  status: args.status,
  creator: args.creator,
  contributor: args.contributor,
  requestedReviewer: args.requestedReviewer,
  orderBy: args.orderByTime,
});

/** The edge of a space's `changeRequests`, shared with `createChangeRequest`'s payload. */
export const ChangeRequestEdgeRef = builder.edgeObject({
  type: ChangeRequestRef,
  name: "SpaceChangeRequestsConnectionEdge",
});

builder.objectFields(SpaceRef, (t) => ({
  changeRequests: t.connection(
    {
      type: ChangeRequestRef,
      description: "The space's change requests, newest first (listChangeRequestsForSpace).",
      args: filterArgs,
      resolve: (space, args, ctx, info) =>
        listChangeRequests(
          ctx,
          { spaceId: space.id },
          filtersOf(args),
          args,
          listArgsOf(args),
          itemsSelectAny(info, changeRequestFieldsReadingRelations),
        ),
    },
    {},
    ChangeRequestEdgeRef,
  ),
  changeRequest: t.field({
    type: ChangeRequestRef,
    description: "One change request of the space (getChangeRequestById); an error (NOT_FOUND) when none.",
    args: { id: t.arg.id({ required: true, description: "Its id, or its number in the space." }) },
    resolve: (space, args, ctx) => getChangeRequest(ctx, space.id, args.id),
  }),
}));

builder.objectFields(RevisionRef, (t) => ({
  changeRequestId: t.exposeID("changeRequestId", {
    nullable: true,
    description: "Id of the change request whose content it is (the id of `changeRequest`); null for the space's.",
  }),
  changeRequest: t.field({
    type: ChangeRequestRef,
    nullable: true,
    description: "The change request whose content it is; null for the space's own revisions.",
    resolve: (revision, _args, ctx) =>
      revision.changeRequestId ? parentChangeRequest(ctx, revision.changeRequestId) : null,
  }),
  mergedFrom: t.field({
    type: ChangeRequestRef,
    nullable: true,
    description: "Merge revisions: the change request merged; null for other revisions.",
    resolve: (revision, _args, ctx) =>
      revision.type === "merge" && revision.changeRequestId
        ? changeRequestByIdLoader(ctx).load(revision.changeRequestId)
        : null,
  }),
}));

builder.objectFields(OrganizationRef, (t) => ({
  changeRequests: t.connection({
    type: ChangeRequestRef,
    description:
      "The change requests of the organization's spaces the viewer may read, newest first " +
      "(listChangeRequestsForOrganization).",
    args: {
      ...filterArgs,
      site: t.arg.id({ description: "A site id: only change requests of the spaces its site spaces publish." }),
      space: t.arg.id({ description: "A space id: only that space's change requests." }),
    },
    resolve: (organization, args, ctx, info) =>
      listChangeRequests(
        ctx,
        { organizationId: organization.id, siteId: args.site ?? null, spaceId: args.space ?? null },
        filtersOf(args),
        args,
        listArgsOf(args),
        itemsSelectAny(info, changeRequestFieldsReadingRelations),
      ),
  }),
}));
