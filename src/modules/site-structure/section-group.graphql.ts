import { builder } from "../../graphql/builder.ts";
import { describeInputField } from "../../graphql/input-description.ts";
import { idColumn } from "../../graphql/node-ids.ts";
import { describeMutation, payloadType } from "../../graphql/payload.ts";
import { checkedByService } from "../../graphql/service-check.ts";
import { pageOfList } from "../../paging/memory-pagination.ts";
import { type Edge, edgeOf, type SortKey } from "../../paging/pagination.ts";
import { typeOfId } from "../../platform/ids.ts";
import { siteByIdArgs, siteParentArgs } from "./parent-args.graphql.ts";
import { SiteStructureItemTypeEnum } from "./pointer-types.graphql.ts";
import {
  addGroupSchema,
  addSectionGroup,
  addSectionToGroup,
  addSectionToGroupSchema,
  childrenOfGroup,
  deleteSectionGroup,
  groupPlacementSchema,
  groupPointerSchema,
  groupPositionSchema,
  listSectionGroups,
  moveSectionGroup,
  removeSectionFromGroup,
  updateGroupSchema,
  updateSectionGroup,
} from "./section-group.service.ts";
import { SiteRef } from "./site.graphql.ts";
import { loadVisibleSectionGroups } from "./site-nodes.service.ts";
import type { GroupNode, SectionNode, StructureItem } from "./site-section.service.ts";
import { SiteSectionGroupRef, SiteSectionRef, SiteStructureItemRef } from "./structure-items.graphql.ts";
import { structureReads } from "./structure-reads.ts";
import { sectionGroupOrder } from "./structure-sql.ts";

/** A group's children: sections and groups share one order among their siblings. */
const structureItemOrder: SortKey<StructureItem>[] = [
  { field: "position", direction: "asc" },
  { field: "id", direction: "asc" },
];

builder.node(SiteSectionGroupRef, {
  extensions: { restObjectName: "site-section-group" },
  description: "A named group of sections (and of groups, one level deep) in a site's structure.",
  id: idColumn,
  loadMany: (ids, ctx) => loadVisibleSectionGroups(ctx, ids),
  fields: (t) => ({
    title: t.exposeString("title", { description: "The group's title (1..100 characters)." }),
    sectionGroupId: t.exposeID("parentGroupId", {
      nullable: true,
      description: "Id of its parent group (the id of `sectionGroup`); null at the top level.",
    }),
    sectionGroup: t.field({
      type: SiteSectionGroupRef,
      nullable: true,
      description: "Its parent group; null at the top level.",
      resolve: (group, _args, ctx) => structureReads(ctx).parentGroup(group.siteId, group.parentGroupId),
    }),
    icon: t.exposeString("icon", { nullable: true, description: "Icon name; null when it has none." }),
    sectionList: t.field({
      type: [SiteSectionRef],
      description:
        "All its sections in order, as one list (the REST body's `sections`, deprecated there for `children`); " +
        "front ends page `children`.",
      resolve: async (group, _args, ctx) =>
        (await childrenOfGroup(ctx, group)).filter((item): item is SectionNode => typeOfId(item.id) === "SiteSection"),
    }),
    children: t.connection({
      type: SiteStructureItemRef,
      description:
        "Its sections and child groups in order, a page at a time (`removeSectionFromGroup`'s `removedId` is the " +
        "id of the edge it drops).",
      resolve: async (group, args, ctx) =>
        pageOfList(args, structureItemOrder, await childrenOfGroup(ctx, group), { sectionGroupId: group.id }),
    }),
    childList: t.field({
      type: [SiteStructureItemRef],
      description: "All its sections and child groups in order, as one list (the REST body's `children`).",
      resolve: (group, _args, ctx) => childrenOfGroup(ctx, group),
    }),
  }),
});

builder.objectFields(SiteRef, (t) => ({
  sectionGroups: t.connection({
    type: SiteSectionGroupRef,
    description:
      "Every section group of the site, nested or not, in order, a page at a time (listSiteSectionGroups; one " +
      "statement for all sites of a read).",
    resolve: async (site, args, ctx) =>
      pageOfList(args, sectionGroupOrder, await structureReads(ctx).sectionGroups.load(site.id), { siteId: site.id }),
  }),
}));

/** The edge of `siteSectionGroups`, shared with `createSiteSectionGroup`'s payload. */
const SiteSectionGroupEdgeRef = builder.edgeObject({
  type: SiteSectionGroupRef,
  name: "QuerySiteSectionGroupsConnectionEdge",
});

builder.queryFields((t) => ({
  siteSectionGroups: t.connection(
    {
      type: SiteSectionGroupRef,
      description:
        "Every section group of a site, nested or not, in order; organization members (listSiteSectionGroups).",
      args: {
        organizationId: t.arg.id({ required: true, description: "The organization's id." }),
        siteId: t.arg.id({ required: true, description: "The site's id." }),
      },
      resolve: (_root, args, ctx) => listSectionGroups(ctx, args.organizationId, args.siteId, args),
    },
    {},
    SiteSectionGroupEdgeRef,
  ),
}));

const AddSectionGroupToSiteInput = builder.inputType("AddSectionGroupToSiteInput", {
  description: "A new section group.",
  fields: (t) => ({
    title: t.string({ required: true, description: describeInputField(addGroupSchema, "title") }),
    icon: t.string({ description: describeInputField(addGroupSchema, "icon") }),
    sections: t.idList({ description: describeInputField(addGroupSchema, "sections") }),
    parent: t.id({ description: describeInputField(addGroupSchema, "parent") }),
  }),
});

const UpdateSiteSectionGroupInput = builder.inputType("UpdateSiteSectionGroupInput", {
  description: "Changes to a section group; omitted fields stay as they are.",
  fields: (t) => ({
    title: t.string({ description: describeInputField(updateGroupSchema, "title") }),
    icon: t.string({ description: describeInputField(updateGroupSchema, "icon") }),
  }),
});

const AddSectionToGroupInput = builder.inputType("AddSectionToGroupInput", {
  description: "A section to move into a group.",
  fields: (t) => ({
    sectionId: t.id({ required: true, description: describeInputField(addSectionToGroupSchema, "sectionId") }),
  }),
});

const SiteSectionGroupPointerInput = builder.inputType("SiteSectionGroupPointerInput", {
  description: "A section or group, as a sibling to place a group before or after.",
  fields: (t) => ({
    type: t.field({
      type: SiteStructureItemTypeEnum,
      required: true,
      description: describeInputField(groupPointerSchema, "type"),
      extensions: checkedByService(groupPointerSchema, 1),
    }),
    id: t.id({ required: true, description: describeInputField(groupPointerSchema, "id") }),
  }),
});

const MoveSiteSectionGroupInput = builder.inputType("MoveSiteSectionGroupInput", {
  description: "Where to move a section group.",
  fields: (t) => ({
    position: t.field({
      type: builder.inputType("SiteSectionGroupMovePositionInput", {
        description: "Where to place a group among its siblings: before or after one of them.",
        fields: (p) => ({
          before: p.field({
            type: SiteSectionGroupPointerInput,
            description: describeInputField(groupPositionSchema, "before"),
          }),
          after: p.field({
            type: SiteSectionGroupPointerInput,
            description: describeInputField(groupPositionSchema, "after"),
          }),
        }),
      }),
      description: describeInputField(groupPlacementSchema, "position"),
    }),
  }),
});

const CreateSiteSectionGroupPayloadRef = payloadType<{
  siteSectionGroup: GroupNode;
  siteSectionGroupEdge: Edge<GroupNode>;
}>("createSiteSectionGroup", {
  siteSectionGroup: { type: SiteSectionGroupRef, description: "The new section group." },
  siteSectionGroupEdge: {
    type: SiteSectionGroupEdgeRef,
    description: "The new group's edge in the site's `siteSectionGroups`.",
  },
});
const UpdateSiteSectionGroupPayloadRef = payloadType<{ siteSectionGroup: GroupNode }>("updateSiteSectionGroup", {
  siteSectionGroup: { type: SiteSectionGroupRef, description: "The section group, changed." },
});
const MoveSiteSectionGroupPayloadRef = payloadType<{ siteSectionGroup: GroupNode }>("moveSiteSectionGroup", {
  siteSectionGroup: { type: SiteSectionGroupRef, description: "The section group, moved." },
});
const DeleteSiteSectionGroupPayloadRef = payloadType<{ deletedId: string }>("deleteSiteSectionGroup", {
  deletedId: { type: "ID", description: "The deleted section group's id (for Relay's `@deleteRecord`)." },
});
const AddSectionToGroupPayloadRef = payloadType<{ siteSection: SectionNode; siteSectionGroup: GroupNode }>(
  "addSectionToGroup",
  {
    siteSection: { type: SiteSectionRef, description: "The moved section, now in the group." },
    siteSectionGroup: { type: SiteSectionGroupRef, description: "The group the section moved into." },
  },
);
const RemoveSectionFromGroupPayloadRef = payloadType<{ removedId: string; siteSectionGroup: GroupNode | null }>(
  "removeSectionFromGroup",
  {
    removedId: { type: "ID", description: "The id of the section moved out of the group (for `@deleteEdge`)." },
    siteSectionGroup: {
      type: SiteSectionGroupRef,
      description: "The group the section left; null when there is no such group.",
    },
  },
);

const groupErrors = {
  NOT_FOUND: "no such organization, site or section group for the caller",
  FORBIDDEN: "not an organization admin",
} as const;

builder.mutationFields((t) => {
  const siteSectionGroupId = t.arg.id({ required: true, description: "The section group's id." });
  const groupByIdArgs = { ...siteParentArgs("group"), siteSectionGroupId };
  return {
    createSiteSectionGroup: t.field({
      type: CreateSiteSectionGroupPayloadRef,
      ...describeMutation(
        "Adds a section group at the end of the site root or of a root group (groups nest one level), moving the " +
          "given sections into it; organization admins (addSectionGroupToSite).",
        {
          NOT_FOUND: "no such organization, site, parent group or section for the caller",
          FORBIDDEN: "not an organization admin",
          BAD_USER_INPUT: "invalid input, or a parent group that is itself nested",
        },
      ),
      args: {
        ...siteByIdArgs,
        input: t.arg({ type: AddSectionGroupToSiteInput, required: true, description: "The new group." }),
      },
      resolve: async (_root, args, ctx) => {
        const siteSectionGroup = await addSectionGroup(ctx, args.organizationId, args.siteId, args.input);
        return { siteSectionGroup, siteSectionGroupEdge: edgeOf<GroupNode>(sectionGroupOrder, siteSectionGroup) };
      },
    }),
    updateSiteSectionGroup: t.field({
      type: UpdateSiteSectionGroupPayloadRef,
      ...describeMutation("Changes a section group; organization admins (updateSiteSectionGroupById).", {
        ...groupErrors,
        BAD_USER_INPUT: "invalid input",
      }),
      args: {
        ...groupByIdArgs,
        input: t.arg({ type: UpdateSiteSectionGroupInput, required: true, description: "The changes." }),
      },
      resolve: async (_root, args, ctx) => ({
        siteSectionGroup: await updateSectionGroup(
          ctx,
          args.organizationId,
          args.siteId,
          args.siteSectionGroupId,
          args.input,
        ),
      }),
    }),
    deleteSiteSectionGroup: t.field({
      type: DeleteSiteSectionGroupPayloadRef,
      ...describeMutation(
        "Deletes a section group; its sections and child groups move up to its parent, in its place. A group that " +
          "does not exist succeeds. Organization admins (deleteSiteSectionGroupById).",
        { NOT_FOUND: "no such organization or site for the caller", FORBIDDEN: "not an organization admin" },
      ),
      args: groupByIdArgs,
      resolve: async (_root, args, ctx) => {
        await deleteSectionGroup(ctx, args.organizationId, args.siteId, args.siteSectionGroupId);
        return { deletedId: args.siteSectionGroupId };
      },
    }),
    addSectionToGroup: t.field({
      type: AddSectionToGroupPayloadRef,
      ...describeMutation(
        "Moves a section of the site to the end of a group; organization admins (addSectionToGroup).",
        { ...groupErrors, NOT_FOUND: "no such organization, site, group or section for the caller" },
      ),
      args: {
        ...groupByIdArgs,
        input: t.arg({ type: AddSectionToGroupInput, required: true, description: "The section to move." }),
      },
      resolve: (_root, args, ctx) =>
        addSectionToGroup(ctx, args.organizationId, args.siteId, args.siteSectionGroupId, args.input),
    }),
    removeSectionFromGroup: t.field({
      type: RemoveSectionFromGroupPayloadRef,
      ...describeMutation(
        "Moves the section out to the group's parent, right after the group; succeeds when it was not in the group. " +
          "Organization admins (removeSectionFromGroup).",
        { NOT_FOUND: "no such organization or site for the caller", FORBIDDEN: "not an organization admin" },
      ),
      args: { ...groupByIdArgs, siteSectionId: t.arg.id({ required: true, description: "The section's id." }) },
      resolve: async (_root, args, ctx) => ({
        removedId: args.siteSectionId,
        siteSectionGroup: await removeSectionFromGroup(
          ctx,
          args.organizationId,
          args.siteId,
          args.siteSectionGroupId,
          args.siteSectionId,
        ),
      }),
    }),
    // The public API's moveSiteSectionGroup, which REST's move route runs; sortSiteStructure places any item.
    moveSiteSectionGroup: t.field({
      type: MoveSiteSectionGroupPayloadRef,
      ...describeMutation(
        "Moves a section group among the items of its parent, like sortSiteStructure for a group; organization " +
          "admins (moveSiteSectionGroup).",
        { ...groupErrors, BAD_USER_INPUT: "invalid input, or a position next to an item that is no sibling" },
      ),
      args: {
        ...groupByIdArgs,
        input: t.arg({ type: MoveSiteSectionGroupInput, description: "Where to move it; omitted: to the end." }),
      },
      resolve: async (_root, args, ctx) => ({
        siteSectionGroup: await moveSectionGroup(
          ctx,
          args.organizationId,
          args.siteId,
          args.siteSectionGroupId,
          args.input ?? {},
        ),
      }),
    }),
  };
});
