import type { GraphQLResolveInfo } from "graphql";
import { builder } from "../../graphql/builder.ts";
import { deprecatedNamesRemovedIn } from "../../graphql/deprecations.ts";
import { describeInputField } from "../../graphql/input-description.ts";
import { createdRangeKeys, dateBoundFields, orderByDescription, orderInput } from "../../graphql/list-order.ts";
import { idColumn } from "../../graphql/node-ids.ts";
import { describeMutation, payloadType } from "../../graphql/payload.ts";
import { itemsSelectAny, itemsSelectWithin } from "../../graphql/selection.ts";
import { checkedByService } from "../../graphql/service-check.ts";
import { type Edge, edgeOf } from "../../paging/pagination.ts";
import { SpaceRef, spaceSummaryFields } from "../space/space.public.ts";
import { siteByIdArgs, siteParentArgs } from "./parent-args.graphql.ts";
import { SiteStructureItemTypeEnum } from "./pointer-types.graphql.ts";
import { type SpaceSettling, siteSpaceSpace } from "./site.access.ts";
import { SiteRef } from "./site.graphql.ts";
import { loadVisibleSiteSpaces } from "./site-nodes.service.ts";
import { type SiteSpaceRow, siteSpaceOrder } from "./site-space.loaders.ts";
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
import {
  isDefaultSiteSpace,
  type SiteSpaceSettling,
  siteSpaceFilterSchema,
  siteSpaceListOrder,
  siteSpacesOfSite,
} from "./site-space-list.service.ts";
import { structureUrlsRef } from "./urls.graphql.ts";
import { siteSpaceUrls } from "./urls.ts";

export const SiteSpaceRef = builder.objectRef<SiteSpaceRow>("SiteSpace");

/** The site-space fields that read its space: a list settles the spaces of its items when one is selected. */
const siteSpaceFieldsReadingSpace: ReadonlySet<string> = new Set(["space", "title"]);
const defaultField: ReadonlySet<string> = new Set(["default"]);
const urlsField: ReadonlySet<string> = new Set(["urls"]);

/**
 * How a list of site spaces settles their spaces, by what its items select: summaries when they select nothing of
 * the space a summary lacks.
 */
export function spaceSettlingOf(info: GraphQLResolveInfo): SpaceSettling {
  if (!itemsSelectAny(info, siteSpaceFieldsReadingSpace)) return "none";
  return itemsSelectWithin(info, "space", spaceSummaryFields) ? "summaries" : "full";
}

/** What a page of site spaces settles, by what its items select. */
function settlingOf(info: GraphQLResolveInfo): SiteSpaceSettling {
  return {
    spaces: spaceSettlingOf(info),
    defaults: itemsSelectAny(info, defaultField),
    urls: itemsSelectAny(info, urlsField),
  };
}

builder.node(SiteSpaceRef, {
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
      resolve: (siteSpace, _args, ctx) => siteSpaceSpace(ctx, siteSpace),
    }),
    title: t.string({
      description: "The site space's title: its space's title, or its path to a caller who may not read the space.",
      resolve: (siteSpace, _args, ctx) => siteSpaceTitle(ctx, siteSpace),
    }),
    default: t.boolean({
      description: "Whether it is the default site space of its scope (its section, or the site root).",
      resolve: (siteSpace, _args, ctx) => isDefaultSiteSpace(ctx, siteSpace),
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
      resolve: (siteSpace, _args, ctx) => siteSpaceUrls(ctx, siteSpace),
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
      resolve: (site, args, ctx, info) => siteSpacesOfSite(ctx, site, args, args, settlingOf(info)),
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
        settlingOf(info),
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
const DeleteSiteSpacePayloadRef = payloadType<{ deletedId: string }>("deleteSiteSpace", {
  deletedId: { type: "ID", description: "The deleted site space's id (for Relay's `@deleteRecord`)." },
});

const siteSpaceErrors = {
  NOT_FOUND: "no such organization, site or site space for the caller",
  FORBIDDEN: "not an organization admin",
} as const;

builder.mutationFields((t) => {
  const siteArgs = {
    organizationId: t.arg.id({ required: true, description: "The organization's id." }),
    siteId: t.arg.id({ required: true, description: "The site's id." }),
  };
  const siteSpaceId = t.arg.id({ required: true, description: "The site space's id." });
  const siteSpaceArgs = { ...siteArgs, siteSpaceId };
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
    moveSiteSpace: t.field({
      type: SiteSpaceRef,
      description: "Moves a site space among those of its scope; organization admins (moveSiteSpace).",
      deprecationReason: `Use sortSiteStructure. Removed in ${deprecatedNamesRemovedIn}.`,
      args: {
        ...siteSpaceArgs,
        input: t.arg({ type: MoveSiteSpaceInput, description: "Where to move it; omitted: to the end." }),
      },
      resolve: (_root, args, ctx) =>
        moveSiteSpace(ctx, args.organizationId, args.siteId, args.siteSpaceId, args.input ?? {}),
    }),
  };
});
