import { builder } from "../../graphql/builder.ts";
import { publicEnum } from "../../graphql/enums.ts";
import { describeInputField } from "../../graphql/input-description.ts";
import { createdRangeKeys, dateBoundFields, orderByDescription, orderInput } from "../../graphql/list-order.ts";
import { idColumn } from "../../graphql/node-ids.ts";
import { describeMutation, payloadType } from "../../graphql/payload.ts";
import { checkedByService } from "../../graphql/service-check.ts";
import { pageOfList } from "../../paging/memory-pagination.ts";
import { type Edge, edgeOf } from "../../paging/pagination.ts";
import { siteByIdArgs, siteParentArgs } from "./parent-args.graphql.ts";
import { SiteStructureItemTypeEnum } from "./pointer-types.graphql.ts";
import { SiteRef } from "./site.graphql.ts";
import { loadVisibleSiteSections } from "./site-nodes.service.ts";
import {
  addSectionSchema,
  addSiteSection,
  deleteSiteSection,
  type GroupNode,
  isDefaultSection,
  moveSiteSection,
  type SectionNode,
  type SiteStructure,
  sectionPlacementSchema,
  sectionPointerSchema,
  sectionPositionSchema,
  siteSpacesOfSection,
  siteStructure,
  sortSiteStructure,
  sortStructureSchema,
  structurePointerSchema,
  structurePositionSchema,
  updateSectionSchema,
  updateSiteSection,
} from "./site-section.service.ts";
import {
  listSiteSections,
  sectionFilterSchema,
  sectionListOrder,
  sectionsOfSite,
} from "./site-section-list.service.ts";
import { SiteSpaceRef } from "./site-space.graphql.ts";
import { SiteSectionGroupRef, SiteSectionRef, SiteStructureItemRef } from "./structure-items.graphql.ts";
import { structureReads } from "./structure-reads.ts";
import { spaceSettlingOf } from "./structure-selection.ts";
import { type SiteSpaceRow, siteSectionOrder, siteSpaceOrder } from "./structure-sql.ts";
import { structureUrlsRef } from "./urls.graphql.ts";

builder.node(SiteSectionRef, {
  extensions: { restObjectName: "site-section" },
  description: "A section of a site: one or more site spaces (variants) under a path.",
  id: idColumn,
  loadMany: (ids, ctx) => loadVisibleSiteSections(ctx, ids),
  fields: (t) => ({
    title: t.exposeString("title", { description: "The section's title (2..128 characters)." }),
    description: t.exposeString("description", {
      nullable: true,
      description: "Short description shown with the section (at most 256 characters); null when it has none.",
    }),
    default: t.boolean({
      description: "Whether it is the site's default section.",
      resolve: (section, _args, ctx) => isDefaultSection(ctx, section),
    }),
    path: t.exposeString("path", { description: "The section's URL path, unique among the site's sections." }),
    condition: t.exposeString("condition", {
      nullable: true,
      description:
        "Expression over `visitor.claims` that must hold for a visitor to see the section; null: shown to all.",
    }),
    sectionGroupId: t.exposeID("sectionGroupId", {
      nullable: true,
      description: "Id of its group (the id of `sectionGroup`); null when it is in none.",
    }),
    sectionGroup: t.field({
      type: SiteSectionGroupRef,
      nullable: true,
      description: "Its group; null when it is in none.",
      resolve: (section, _args, ctx) => structureReads(ctx).parentGroup(section.siteId, section.sectionGroupId),
    }),
    icon: t.exposeString("icon", { nullable: true, description: "Icon name; null when it has none." }),
    siteSpaces: t.connection({
      type: SiteSpaceRef,
      description:
        "Its site spaces in order, a page at a time (read with every section of the site: one statement for all " +
        "sections of a read).",
      resolve: async (section, args, ctx, info) =>
        pageOfList(args, siteSpaceOrder, await siteSpacesOfSection(ctx, section, spaceSettlingOf(info)), {
          sectionId: section.id,
        }),
    }),
    siteSpaceList: t.field({
      type: [SiteSpaceRef],
      description:
        "All its site spaces in order, as one list (the REST body's `siteSpaces`); front ends page `siteSpaces`.",
      resolve: (section, _args, ctx, info) => siteSpacesOfSection(ctx, section, spaceSettlingOf(info)),
    }),
    urls: t.field({
      type: structureUrlsRef,
      description: "Where the section is found.",
      resolve: (section, _args, ctx) => structureReads(ctx).sectionUrls(section),
    }),
  }),
});

const SiteStructureTypeEnum = publicEnum("SiteStructureType", "How a site is organized.", {
  sections: "In sections and section groups.",
  siteSpaces: "In site spaces, without sections.",
});

export const SiteStructureRef = builder.objectRef<SiteStructure>("SiteStructure").implement({
  description: "How a site is organized: `sections` (sections and section groups) or `siteSpaces` (no sections).",
  fields: (t) => ({
    type: t.expose("type", { type: SiteStructureTypeEnum, description: "How the site is organized." }),
    structure: t.field({
      type: [SiteStructureItemRef],
      description:
        "The root items in order: sections and section groups (groups list their children), or site spaces when " +
        "the site has no sections.",
      resolve: (structure) => structure.structure as (SectionNode | GroupNode | SiteSpaceRow)[],
    }),
  }),
});

const SiteSectionOrderInput = orderInput("SiteSection", "site sections", sectionListOrder.fields);

const SiteSectionFilterInput = builder.inputType("SiteSectionFilter", {
  description: "Conditions on the sections listed, all of which must hold.",
  fields: (t) => ({
    titleContains: t.string({ description: describeInputField(sectionFilterSchema, "titleContains") }),
    ...dateBoundFields(t, sectionFilterSchema, createdRangeKeys),
  }),
});

const sectionListArgs = builder.args((t) => ({
  orderBy: t.field({ type: [SiteSectionOrderInput], description: orderByDescription("in the site's order") }),
  filter: t.field({ type: SiteSectionFilterInput, description: "Conditions on the sections listed." }),
}));

/** The edge of a site's `sections`, shared with `createSiteSection`'s payload. */
const SiteSectionEdgeRef = builder.edgeObject({ type: SiteSectionRef, name: "SiteSectionsConnectionEdge" });

builder.objectFields(SiteRef, (t) => ({
  sections: t.connection(
    {
      type: SiteSectionRef,
      description: "The site's sections, in order, grouped or not (listSiteSections).",
      args: sectionListArgs,
      resolve: (site, args, ctx) => sectionsOfSite(ctx, site, args, args),
    },
    {},
    SiteSectionEdgeRef,
  ),
}));

builder.queryFields((t) => ({
  siteSections: t.connection({
    type: SiteSectionRef,
    description:
      "A site's sections, in order, grouped or not; organization members, or anyone with an active `shareKey` of " +
      "the site (listSiteSections).",
    args: {
      organizationId: t.arg.id({ required: true, description: "The organization's id." }),
      siteId: t.arg.id({ required: true, description: "The site's id." }),
      shareKey: t.arg.string({ description: "The key of an active share link of the site, to read without a token." }),
      ...sectionListArgs,
    },
    resolve: (_root, args, ctx) => listSiteSections(ctx, args.organizationId, args.siteId, args, args.shareKey, args),
  }),
  siteStructure: t.field({
    type: SiteStructureRef,
    description: "A site's whole structure, unfiltered by conditions; organization members (getSiteStructure).",
    args: {
      organizationId: t.arg.id({ required: true, description: "The organization's id." }),
      siteId: t.arg.id({ required: true, description: "The site's id." }),
    },
    resolve: (_root, args, ctx) => siteStructure(ctx, args.organizationId, args.siteId),
  }),
}));

const AddSectionToSiteInput = builder.inputType("AddSectionToSiteInput", {
  description: "A new section, made with one site space.",
  fields: (t) => ({
    spaceId: t.id({ required: true, description: describeInputField(addSectionSchema, "spaceId") }),
    title: t.string({ description: describeInputField(addSectionSchema, "title") }),
    icon: t.string({ description: describeInputField(addSectionSchema, "icon") }),
  }),
});

const UpdateSiteSectionInput = builder.inputType("UpdateSiteSectionInput", {
  description: "Changes to a section; omitted fields stay as they are.",
  fields: (t) => ({
    title: t.string({ description: describeInputField(updateSectionSchema, "title") }),
    path: t.string({ description: describeInputField(updateSectionSchema, "path") }),
    defaultSiteSpace: t.id({ description: describeInputField(updateSectionSchema, "defaultSiteSpace") }),
    condition: t.string({ description: describeInputField(updateSectionSchema, "condition") }),
    icon: t.string({ description: describeInputField(updateSectionSchema, "icon") }),
    description: t.string({ description: describeInputField(updateSectionSchema, "description") }),
  }),
});

const SiteSectionPointerInput = builder.inputType("SiteSectionPointerInput", {
  description: "A section, as a sibling to place another before or after.",
  fields: (t) => ({
    type: t.field({
      type: SiteStructureItemTypeEnum,
      required: true,
      description: describeInputField(sectionPointerSchema, "type"),
      extensions: checkedByService(sectionPointerSchema, 1),
    }),
    siteSection: t.id({ required: true, description: describeInputField(sectionPointerSchema, "siteSection") }),
  }),
});

const SiteSectionMovePositionInput = builder.inputType("SiteSectionMovePositionInput", {
  description: "Where to place a section among its siblings: before or after one of them.",
  fields: (t) => ({
    before: t.field({
      type: SiteSectionPointerInput,
      description: describeInputField(sectionPositionSchema, "before"),
    }),
    after: t.field({ type: SiteSectionPointerInput, description: describeInputField(sectionPositionSchema, "after") }),
  }),
});

const MoveSiteSectionInput = builder.inputType("MoveSiteSectionInput", {
  description: "Where to move a section.",
  fields: (t) => ({
    position: t.field({
      type: SiteSectionMovePositionInput,
      description: describeInputField(sectionPlacementSchema, "position"),
    }),
  }),
});

const SiteStructureItemPointerInput = builder.inputType("SiteStructureItemPointerInput", {
  description: "An item of a site's structure: a site space, section or section group.",
  fields: (t) => ({
    type: t.field({
      type: SiteStructureItemTypeEnum,
      required: true,
      description: describeInputField(structurePointerSchema, "type"),
      extensions: checkedByService(structurePointerSchema, 1),
    }),
    id: t.id({ required: true, description: describeInputField(structurePointerSchema, "id") }),
  }),
});

const SortSiteStructureInput = builder.inputType("SortSiteStructureInput", {
  description: "An item of a site's structure and where to place it among its siblings.",
  fields: (t) => ({
    item: t.field({
      type: SiteStructureItemPointerInput,
      required: true,
      description: describeInputField(sortStructureSchema, "item"),
    }),
    position: t.field({
      type: builder.inputType("SiteStructureItemMovePositionInput", {
        description: "Where to place an item among its siblings: before or after one of them.",
        fields: (p) => ({
          before: p.field({
            type: SiteStructureItemPointerInput,
            description: describeInputField(structurePositionSchema, "before"),
          }),
          after: p.field({
            type: SiteStructureItemPointerInput,
            description: describeInputField(structurePositionSchema, "after"),
          }),
        }),
      }),
      required: true,
      description: describeInputField(sortStructureSchema, "position"),
    }),
  }),
});

type StructureItemRow = SectionNode | GroupNode | SiteSpaceRow;

const CreateSiteSectionPayloadRef = payloadType<{ siteSection: SectionNode; siteSectionEdge: Edge<SectionNode> }>(
  "createSiteSection",
  {
    siteSection: { type: SiteSectionRef, description: "The new section." },
    siteSectionEdge: { type: SiteSectionEdgeRef, description: "The new section's edge in the site's `sections`." },
  },
);
const UpdateSiteSectionPayloadRef = payloadType<{ siteSection: SectionNode }>("updateSiteSection", {
  siteSection: { type: SiteSectionRef, description: "The section, changed." },
});
const MoveSiteSectionPayloadRef = payloadType<{ siteSection: SectionNode }>("moveSiteSection", {
  siteSection: { type: SiteSectionRef, description: "The section, moved." },
});
const DeleteSiteSectionPayloadRef = payloadType<{ deletedId: string }>("deleteSiteSection", {
  deletedId: { type: "ID", description: "The deleted section's id (for Relay's `@deleteRecord`)." },
});
const SortSiteStructurePayloadRef = payloadType<{ item: StructureItemRow; position: number }>("sortSiteStructure", {
  item: { type: SiteStructureItemRef, description: "The moved item." },
  position: { type: "Int", description: "The item's new position among its siblings (0 first)." },
});

const sectionErrors = {
  NOT_FOUND: "no such organization, site or section for the caller",
  FORBIDDEN: "not an organization admin",
} as const;

builder.mutationFields((t) => {
  const siteSectionId = t.arg.id({ required: true, description: "The section's id." });
  const sectionByIdArgs = { ...siteParentArgs("section"), siteSectionId };
  return {
    createSiteSection: t.field({
      type: CreateSiteSectionPayloadRef,
      ...describeMutation(
        "Adds a section holding a space as its first site space, at the end of the site root. A site whose site " +
          "spaces sat at its root first gets them moved into a section named after the site; the first section " +
          "becomes the site's default. Organization admins (addSectionToSite).",
        {
          NOT_FOUND: "no such organization or site for the caller",
          FORBIDDEN: "not an organization admin",
          BAD_USER_INPUT: "invalid input, or a space outside the organization",
        },
      ),
      args: {
        ...siteByIdArgs,
        input: t.arg({ type: AddSectionToSiteInput, required: true, description: "The new section." }),
      },
      resolve: async (_root, args, ctx) => {
        const siteSection = await addSiteSection(ctx, args.organizationId, args.siteId, args.input);
        return { siteSection, siteSectionEdge: edgeOf<SectionNode>(siteSectionOrder, siteSection) };
      },
    }),
    updateSiteSection: t.field({
      type: UpdateSiteSectionPayloadRef,
      ...describeMutation("Changes a section; organization admins (updateSiteSectionById).", {
        ...sectionErrors,
        BAD_USER_INPUT: "invalid input",
        CONFLICT: "the path is taken on the site",
      }),
      args: {
        ...sectionByIdArgs,
        input: t.arg({ type: UpdateSiteSectionInput, required: true, description: "The changes." }),
      },
      resolve: async (_root, args, ctx) => ({
        siteSection: await updateSiteSection(ctx, args.organizationId, args.siteId, args.siteSectionId, args.input),
      }),
    }),
    deleteSiteSection: t.field({
      type: DeleteSiteSectionPayloadRef,
      ...describeMutation(
        "Deletes the section and its site spaces (not their spaces); when it was the default, the first remaining " +
          "section becomes it. A section that does not exist succeeds. Organization admins (deleteSiteSectionById).",
        { NOT_FOUND: "no such organization or site for the caller", FORBIDDEN: "not an organization admin" },
      ),
      args: sectionByIdArgs,
      resolve: async (_root, args, ctx) => {
        await deleteSiteSection(ctx, args.organizationId, args.siteId, args.siteSectionId);
        return { deletedId: args.siteSectionId };
      },
    }),
    // The public API's moveSiteSection, which REST's move route runs; sortSiteStructure places any item.
    moveSiteSection: t.field({
      type: MoveSiteSectionPayloadRef,
      ...describeMutation(
        "Moves a section among the items of its parent (site root or group), like sortSiteStructure for a " +
          "section; organization admins (moveSiteSection).",
        { ...sectionErrors, BAD_USER_INPUT: "invalid input, or a position next to an item that is no sibling" },
      ),
      args: {
        ...sectionByIdArgs,
        input: t.arg({ type: MoveSiteSectionInput, description: "Where to move it; omitted: to the end." }),
      },
      resolve: async (_root, args, ctx) => ({
        siteSection: await moveSiteSection(ctx, args.organizationId, args.siteId, args.siteSectionId, args.input ?? {}),
      }),
    }),
    sortSiteStructure: t.field({
      type: SortSiteStructurePayloadRef,
      ...describeMutation(
        "Places a site space, section or section group before or after a sibling, or at the end; items keep their " +
          "parent (another target is refused). Organization admins (sortSiteStructure).",
        {
          NOT_FOUND: "no such organization, site, item or sibling for the caller",
          FORBIDDEN: "not an organization admin",
          BAD_USER_INPUT: "invalid input, or a sibling under another parent",
        },
      ),
      args: {
        ...siteByIdArgs,
        input: t.arg({ type: SortSiteStructureInput, required: true, description: "The item and where to put it." }),
      },
      resolve: async (_root, args, ctx) => {
        const item = (await sortSiteStructure(ctx, args.organizationId, args.siteId, args.input)) as StructureItemRow;
        return { item, position: item.position };
      },
    }),
  };
});
