import { builder } from "../../graphql/builder.ts";
import { describeInputField } from "../../graphql/input-description.ts";
import { createdRangeKeys, dateBoundFields, orderByDescription, orderInput } from "../../graphql/list-order.ts";
import { idColumn } from "../../graphql/node-ids.ts";
import { describeMutation, payloadType } from "../../graphql/payload.ts";
import { checkedByService } from "../../graphql/service-check.ts";
import { type Edge, edgeOf } from "../../paging/pagination.ts";
import { SpaceRef } from "../space/space.public.ts";
import { siteByIdArgs, siteParentArgs } from "./parent-args.graphql.ts";
import { SiteStructureItemTypeEnum } from "./pointer-types.graphql.ts";
import { SiteRef } from "./site.graphql.ts";
import { loadVisibleSiteSpaces } from "./site-nodes.service.ts";
import {
  addSiteSpace,
  addSiteSpaceSchema,
  deleteSiteSpace,
  listSiteSpaces,
  moveSiteSpace,
  siteSpacePlacementSchema,
  siteSpacePointerSchema,
  siteSpacePositionSchema,
  siteSpaceTitle,
  updateSiteSpace,
  updateSiteSpaceSchema,
} from "./site-space.service.ts";
import { siteSpaceFilterSchema, siteSpaceListOrder, siteSpacesOfSite } from "./site-space-list.service.ts";
import { structureReads } from "./structure-reads.ts";
import { siteSpaceSettlingOf } from "./structure-selection.ts";
import { type SiteSpaceRow, siteSpaceOrder } from "./structure-sql.ts";
import { structureUrlsRef } from "./urls.graphql.ts";

export const SiteSpaceRef = builder.objectRef<SiteSpaceRow>("SiteSpace");

builder.node(SiteSpaceRef, {
  extensions: { restObjectName: "site-space" },
  description: "A space placed on a site at a path, at the site root or in a section.",
  id: idColumn,
  loadMany: (ids, ctx) => loadVisibleSiteSpaces(ctx, ids),
  fields: (t) => ({
    path: t.exposeString("path", { description: "Its URL path, unique in its scope (its section or the site root)." }),
    sectionId: t.exposeID("sectionId", {
      nullable: true,
      description: "Id of its section (the id of `section`); null at the site root.",
    }),
    space: t.field({
      type: SpaceRef,
      nullable: true,
      description: "Its space; null to a signed-in caller who may not read that space.",
      resolve: (siteSpace, _args, ctx) => structureReads(ctx).spaceOf(siteSpace),
    }),
    title: t.string({
      description: "The site space's title: its space's title, or its path to a caller who may not read the space.",
      resolve: (siteSpace, _args, ctx) => siteSpaceTitle(ctx, siteSpace),
    }),
    default: t.boolean({
      description: "Whether it is the default site space of its scope (its section, or the site root).",
      resolve: (siteSpace, _args, ctx) => structureReads(ctx).isDefault(siteSpace),
    }),
    condition: t.exposeString("condition", {
      nullable: true,
      description:
        "Expression over `visitor.claims` that must hold for a visitor to see the site space; null: shown to all.",
    }),
    hasAdvancedCustomizationFeature: t.boolean({
      description: "Always false: there are no plans here.",
      resolve: () => false,
    }),
    urls: t.field({
      type: structureUrlsRef,
      description: "Where the site space is found.",
      resolve: (siteSpace, _args, ctx) => structureReads(ctx).urlsOf(siteSpace),
    }),
  }),
});

const SiteSpaceOrderInput = orderInput("SiteSpace", "site spaces", siteSpaceListOrder.fields);

const SiteSpaceFilterInput = builder.inputType("SiteSpaceFilter", {
  description: "Conditions on the site spaces listed, all of which must hold.",
  fields: (t) => ({
    pathContains: t.string({ description: describeInputField(siteSpaceFilterSchema, "pathContains") }),
    ...dateBoundFields(t, siteSpaceFilterSchema, createdRangeKeys),
  }),
});

const siteSpaceListArgs = builder.args((t) => ({
  orderBy: t.field({ type: [SiteSpaceOrderInput], description: orderByDescription("by position in their scope") }),
  filter: t.field({ type: SiteSpaceFilterInput, description: "Conditions on the site spaces listed." }),
}));

/** The edge of a site's `siteSpaces`, shared with `createSiteSpace`'s payload. */
const SiteSpaceEdgeRef = builder.edgeObject({ type: SiteSpaceRef, name: "SiteSiteSpacesConnectionEdge" });

builder.objectFields(SiteRef, (t) => ({
  siteSpaces: t.connection(
    {
      type: SiteSpaceRef,
      description: "Every site space of the site, at its root and in its sections (listSiteSpaces).",
      args: siteSpaceListArgs,
      resolve: (site, args, ctx, info) => siteSpacesOfSite(ctx, site, args, args, siteSpaceSettlingOf(info)),
    },
    {},
    SiteSpaceEdgeRef,
  ),
}));

builder.queryFields((t) => ({
  siteSpaces: t.connection({
    type: SiteSpaceRef,
    description:
      "Every site space of a site (root and sections), in order; organization members, or anyone with an active " +
      "`shareKey` of the site (listSiteSpaces).",
    args: {
      organizationId: t.arg.id({ required: true, description: "The organization's id." }),
      siteId: t.arg.id({ required: true, description: "The site's id." }),
      shareKey: t.arg.string({ description: "The key of an active share link of the site, to read without a token." }),
      default: t.arg.boolean({ description: "true: only default site spaces; false: only the others." }),
      ...siteSpaceListArgs,
    },
    resolve: (_root, args, ctx, info) =>
      listSiteSpaces(
        ctx,
        args.organizationId,
        args.siteId,
        args,
        { shareKey: args.shareKey, default: args.default },
        args,
        siteSpaceSettlingOf(info),
      ),
  }),
}));

const AddSpaceToSiteInput = builder.inputType("AddSpaceToSiteInput", {
  description: "A space to show on a site, and where.",
  fields: (t) => ({
    spaceId: t.id({ required: true, description: describeInputField(addSiteSpaceSchema, "spaceId") }),
    sectionId: t.id({ description: describeInputField(addSiteSpaceSchema, "sectionId") }),
  }),
});

const UpdateSiteSpaceInput = builder.inputType("UpdateSiteSpaceInput", {
  description: "Changes to a site space; omitted fields stay as they are.",
  fields: (t) => ({
    path: t.string({ description: describeInputField(updateSiteSpaceSchema, "path") }),
    condition: t.string({ description: describeInputField(updateSiteSpaceSchema, "condition") }),
    spaceId: t.id({ description: describeInputField(updateSiteSpaceSchema, "spaceId") }),
  }),
});

const SiteSpacePointerInput = builder.inputType("SiteSpacePointerInput", {
  description: "A site space, as a sibling to place another before or after.",
  fields: (t) => ({
    type: t.field({
      type: SiteStructureItemTypeEnum,
      required: true,
      description: describeInputField(siteSpacePointerSchema, "type"),
      extensions: checkedByService(siteSpacePointerSchema, 1),
    }),
    siteSpace: t.id({ required: true, description: describeInputField(siteSpacePointerSchema, "siteSpace") }),
  }),
});

const SiteSpaceMovePositionInput = builder.inputType("SiteSpaceMovePositionInput", {
  description: "Where to place a site space among its siblings: before or after one of them.",
  fields: (t) => ({
    before: t.field({
      type: SiteSpacePointerInput,
      description: describeInputField(siteSpacePositionSchema, "before"),
    }),
    after: t.field({ type: SiteSpacePointerInput, description: describeInputField(siteSpacePositionSchema, "after") }),
  }),
});

const MoveSiteSpaceInput = builder.inputType("MoveSiteSpaceInput", {
  description: "Where to move a site space.",
  fields: (t) => ({
    position: t.field({
      type: SiteSpaceMovePositionInput,
      description: describeInputField(siteSpacePlacementSchema, "position"),
    }),
  }),
});

const CreateSiteSpacePayloadRef = payloadType<{ siteSpace: SiteSpaceRow; siteSpaceEdge: Edge<SiteSpaceRow> }>(
  "createSiteSpace",
  {
    siteSpace: { type: SiteSpaceRef, description: "The new site space." },
    siteSpaceEdge: { type: SiteSpaceEdgeRef, description: "The new site space's edge in the site's `siteSpaces`." },
  },
);
const UpdateSiteSpacePayloadRef = payloadType<{ siteSpace: SiteSpaceRow }>("updateSiteSpace", {
  siteSpace: { type: SiteSpaceRef, description: "The site space, changed." },
});
const MoveSiteSpacePayloadRef = payloadType<{ siteSpace: SiteSpaceRow }>("moveSiteSpace", {
  siteSpace: { type: SiteSpaceRef, description: "The site space, moved." },
});
const DeleteSiteSpacePayloadRef = payloadType<{ deletedId: string }>("deleteSiteSpace", {
  deletedId: { type: "ID", description: "The deleted site space's id (for Relay's `@deleteRecord`)." },
});

const siteSpaceErrors = {
  NOT_FOUND: "no such organization, site or site space for the caller",
  FORBIDDEN: "not an organization admin",
} as const;

builder.mutationFields((t) => {
  const siteSpaceId = t.arg.id({ required: true, description: "The site space's id." });
  const siteSpaceByIdArgs = { ...siteParentArgs("site space"), siteSpaceId };
  return {
    createSiteSpace: t.field({
      type: CreateSiteSpacePayloadRef,
      ...describeMutation(
        "Shows a space on a site, at the end of its scope, with a path made from the space's title; the first site " +
          "space of a scope becomes its default. Organization admins (addSpaceToSite).",
        {
          NOT_FOUND: "no such organization or site for the caller",
          FORBIDDEN: "not an organization admin",
          BAD_USER_INPUT: "invalid input, or a space or section the site's organization does not have",
        },
      ),
      args: {
        ...siteByIdArgs,
        input: t.arg({ type: AddSpaceToSiteInput, required: true, description: "The space and where to add it." }),
      },
      resolve: async (_root, args, ctx) => {
        const siteSpace = await addSiteSpace(ctx, args.organizationId, args.siteId, args.input);
        return { siteSpace, siteSpaceEdge: edgeOf(siteSpaceOrder, siteSpace) };
      },
    }),
    updateSiteSpace: t.field({
      type: UpdateSiteSpacePayloadRef,
      ...describeMutation("Changes a site space; organization admins (updateSiteSpaceById).", {
        ...siteSpaceErrors,
        BAD_USER_INPUT: "invalid input",
        CONFLICT: "the path is taken in that scope",
      }),
      args: {
        ...siteSpaceByIdArgs,
        input: t.arg({ type: UpdateSiteSpaceInput, required: true, description: "The changes." }),
      },
      resolve: async (_root, args, ctx) => ({
        siteSpace: await updateSiteSpace(ctx, args.organizationId, args.siteId, args.siteSpaceId, args.input),
      }),
    }),
    deleteSiteSpace: t.field({
      type: DeleteSiteSpacePayloadRef,
      ...describeMutation(
        "Removes a space from a site (the space itself stays); when it was its scope's default, the next one " +
          "becomes it. Deleting a site space that does not exist succeeds. Organization admins (deleteSiteSpaceById).",
        { NOT_FOUND: "no such organization or site for the caller", FORBIDDEN: "not an organization admin" },
      ),
      args: siteSpaceByIdArgs,
      resolve: async (_root, args, ctx) => {
        await deleteSiteSpace(ctx, args.organizationId, args.siteId, args.siteSpaceId);
        return { deletedId: args.siteSpaceId };
      },
    }),
    // The public API's moveSiteSpace, which REST's move route runs; sortSiteStructure places any item.
    moveSiteSpace: t.field({
      type: MoveSiteSpacePayloadRef,
      ...describeMutation(
        "Moves a site space among those of its scope, like sortSiteStructure for a site space; organization admins " +
          "(moveSiteSpace).",
        { ...siteSpaceErrors, BAD_USER_INPUT: "invalid input, or a position next to a site space of another scope" },
      ),
      args: {
        ...siteSpaceByIdArgs,
        input: t.arg({ type: MoveSiteSpaceInput, description: "Where to move it; omitted: to the end." }),
      },
      resolve: async (_root, args, ctx) => ({
        siteSpace: await moveSiteSpace(ctx, args.organizationId, args.siteId, args.siteSpaceId, args.input ?? {}),
      }),
    }),
  };
});
