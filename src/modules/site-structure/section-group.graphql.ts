import { builder } from "../../graphql/builder.ts";
import { describeInputField } from "../../graphql/input-description.ts";
import { typeOfId } from "../../ids.ts";
import { sectionGroupsBySiteLoader } from "./section-group.loaders.ts";
import {
  addGroupSchema,
  addSectionGroup,
  addSectionToGroup,
  childrenOfGroup,
  deleteSectionGroup,
  listSectionGroups,
  moveSectionGroup,
  removeSectionFromGroup,
  updateGroupSchema,
  updateSectionGroup,
} from "./section-group.service.ts";
import { SiteRef } from "./site.graphql.ts";
import { loadVisibleSectionGroups } from "./site-nodes.service.ts";
import type { SectionNode } from "./site-section.service.ts";
import { SiteSectionGroupRef, SiteSectionRef, SiteStructureItemRef } from "./structure-items.graphql.ts";

builder.node(SiteSectionGroupRef, {
  description: "A named group of sections (and of groups, one level deep) in a site's structure.",
  id: { resolve: (row) => row.id },
  loadMany: (ids, ctx) => loadVisibleSectionGroups(ctx, ids),
  fields: (t) => ({
    title: t.exposeString("title"),
    sectionGroup: t.exposeID("parentGroupId", { nullable: true, description: "Id of its parent group, if any." }),
    icon: t.exposeString("icon", { nullable: true }),
    sections: t.field({
      type: [SiteSectionRef],
      description: "Its sections in order (deprecated in the public API for `children`).",
      resolve: async (group, _args, ctx) =>
        (await childrenOfGroup(ctx, group)).filter((item): item is SectionNode => typeOfId(item.id) === "SiteSection"),
    }),
    children: t.field({
      type: [SiteStructureItemRef],
      description: "Its sections and child groups in order.",
      resolve: (group, _args, ctx) => childrenOfGroup(ctx, group),
    }),
  }),
});

builder.objectFields(SiteRef, (t) => ({
  sectionGroups: t.field({
    type: [SiteSectionGroupRef],
    description: "Every section group of the site, nested or not, in order (listSiteSectionGroups).",
    resolve: (site, _args, ctx) => sectionGroupsBySiteLoader(ctx).load(site.id),
  }),
}));

builder.queryFields((t) => ({
  siteSectionGroups: t.connection({
    type: SiteSectionGroupRef,
    description: "listSiteSectionGroups",
    args: { organizationId: t.arg.id({ required: true }), siteId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => listSectionGroups(ctx, String(args.organizationId), String(args.siteId), args),
  }),
}));

const AddSectionGroupToSiteInput = builder.inputType("AddSectionGroupToSiteInput", {
  fields: (t) => ({
    title: t.string({ required: true, description: describeInputField(addGroupSchema, "title") }),
    icon: t.string({ description: describeInputField(addGroupSchema, "icon") }),
    sections: t.idList({ description: describeInputField(addGroupSchema, "sections") }),
    parent: t.id({ description: describeInputField(addGroupSchema, "parent") }),
  }),
});

const UpdateSiteSectionGroupInput = builder.inputType("UpdateSiteSectionGroupInput", {
  fields: (t) => ({
    title: t.string({ description: describeInputField(updateGroupSchema, "title") }),
    icon: t.string({ description: describeInputField(updateGroupSchema, "icon") }),
  }),
});

const AddSectionToGroupInput = builder.inputType("AddSectionToGroupInput", {
  fields: (t) => ({ sectionId: t.string({ required: true }) }),
});

const SiteSectionGroupPointerInput = builder.inputType("SiteSectionGroupPointerInput", {
  fields: (t) => ({
    type: t.string({ required: true, description: "site-section or site-section-group." }),
    id: t.string({ required: true }),
  }),
});

const MoveSiteSectionGroupInput = builder.inputType("MoveSiteSectionGroupInput", {
  fields: (t) => ({
    position: t.field({
      type: builder.inputType("SiteSectionGroupMovePositionInput", {
        fields: (p) => ({
          before: p.field({ type: SiteSectionGroupPointerInput }),
          after: p.field({ type: SiteSectionGroupPointerInput }),
        }),
      }),
      description: "Omitted: to the end.",
    }),
  }),
});

builder.mutationFields((t) => {
  const siteArgs = { organizationId: t.arg.id({ required: true }), siteId: t.arg.id({ required: true }) };
  const groupArgs = { ...siteArgs, siteSectionGroupId: t.arg.id({ required: true }) };
  return {
    addSectionGroupToSite: t.field({
      type: SiteSectionGroupRef,
      args: { ...siteArgs, input: t.arg({ type: AddSectionGroupToSiteInput, required: true }) },
      resolve: (_root, args, ctx) => addSectionGroup(ctx, String(args.organizationId), String(args.siteId), args.input),
    }),
    updateSiteSectionGroupById: t.field({
      type: SiteSectionGroupRef,
      args: { ...groupArgs, input: t.arg({ type: UpdateSiteSectionGroupInput, required: true }) },
      resolve: (_root, args, ctx) =>
        updateSectionGroup(
          ctx,
          String(args.organizationId),
          String(args.siteId),
          String(args.siteSectionGroupId),
          args.input,
        ),
    }),
    deleteSiteSectionGroupById: t.boolean({
      description: "Its sections and child groups move up to its parent; a group that does not exist succeeds.",
      args: groupArgs,
      resolve: async (_root, args, ctx) => {
        await deleteSectionGroup(
          ctx,
          String(args.organizationId),
          String(args.siteId),
          String(args.siteSectionGroupId),
        );
        return true;
      },
    }),
    addSectionToGroup: t.field({
      type: SiteSectionGroupRef,
      args: { ...groupArgs, input: t.arg({ type: AddSectionToGroupInput, required: true }) },
      resolve: (_root, args, ctx) =>
        addSectionToGroup(
          ctx,
          String(args.organizationId),
          String(args.siteId),
          String(args.siteSectionGroupId),
          args.input,
        ),
    }),
    removeSectionFromGroup: t.boolean({
      description: "Moves the section out to the group's parent; succeeds when it was not in the group.",
      args: { ...groupArgs, siteSectionId: t.arg.id({ required: true }) },
      resolve: async (_root, args, ctx) => {
        await removeSectionFromGroup(
          ctx,
          String(args.organizationId),
          String(args.siteId),
          String(args.siteSectionGroupId),
          String(args.siteSectionId),
        );
        return true;
      },
    }),
    moveSiteSectionGroup: t.field({
      type: SiteSectionGroupRef,
      deprecationReason: "Use sortSiteStructure.",
      args: { ...groupArgs, input: t.arg({ type: MoveSiteSectionGroupInput }) },
      resolve: (_root, args, ctx) =>
        moveSectionGroup(
          ctx,
          String(args.organizationId),
          String(args.siteId),
          String(args.siteSectionGroupId),
          args.input ?? {},
        ),
    }),
  };
});
