import type { SiteSpace } from "../../db/generated/client.ts";
import { builder } from "../../graphql/builder.ts";
import { SiteRef } from "./site.graphql.ts";
import { loadVisibleSiteSections } from "./site-nodes.service.ts";
import {
  addSiteSection,
  deleteSiteSection,
  type GroupNode,
  isDefaultSection,
  listSiteSections,
  moveSiteSection,
  type SectionNode,
  type SiteStructure,
  sectionsOfSite,
  siteSpacesOfSection,
  siteStructure,
  sortSiteStructure,
  updateSiteSection,
} from "./site-section.service.ts";
import { SiteSpaceRef } from "./site-space.graphql.ts";
import { SiteSectionRef, SiteStructureItemRef } from "./structure-items.graphql.ts";
import { sectionUrls, structureUrlsRef } from "./urls.ts";

builder.node(SiteSectionRef, {
  description: "A section of a site: one or more site spaces (variants) under a path.",
  id: { resolve: (row) => row.id },
  loadMany: (ids, ctx) => loadVisibleSiteSections(ctx, ids),
  fields: (t) => ({
    title: t.exposeString("title"),
    description: t.exposeString("description", { nullable: true }),
    default: t.boolean({
      description: "Whether it is the site's default section.",
      resolve: (section, _args, ctx) => isDefaultSection(ctx, section),
    }),
    path: t.exposeString("path"),
    condition: t.exposeString("condition", { nullable: true }),
    sectionGroup: t.exposeID("sectionGroupId", { nullable: true, description: "Id of its group, if any." }),
    icon: t.exposeString("icon", { nullable: true }),
    siteSpaces: t.field({
      type: [SiteSpaceRef],
      description: "Its site spaces in order (batched over all sections of a read).",
      resolve: (section, _args, ctx) => siteSpacesOfSection(ctx, section),
    }),
    urls: t.field({ type: structureUrlsRef, resolve: (section, _args, ctx) => sectionUrls(ctx, section) }),
  }),
});

export const SiteStructureRef = builder.objectRef<SiteStructure>("SiteStructure").implement({
  description: "How a site is organized: `sections` (sections and section groups) or `siteSpaces` (no sections).",
  fields: (t) => ({
    type: t.exposeString("type", { description: "sections or siteSpaces." }),
    structure: t.field({
      type: [SiteStructureItemRef],
      resolve: (structure) => structure.structure as (SectionNode | GroupNode | SiteSpace)[],
    }),
  }),
});

builder.objectFields(SiteRef, (t) => ({
  sections: t.connection({
    type: SiteSectionRef,
    description: "The site's sections, in order, grouped or not (listSiteSections).",
    resolve: (site, args, ctx) => sectionsOfSite(ctx, site, args),
  }),
}));

builder.queryFields((t) => ({
  siteSections: t.connection({
    type: SiteSectionRef,
    description: "listSiteSections: open without a token with an active `shareKey` of a share-link site.",
    args: {
      organizationId: t.arg.id({ required: true }),
      siteId: t.arg.id({ required: true }),
      shareKey: t.arg.string(),
    },
    resolve: (_root, args, ctx) =>
      listSiteSections(ctx, String(args.organizationId), String(args.siteId), args, args.shareKey),
  }),
  siteStructure: t.field({
    type: SiteStructureRef,
    description: "getSiteStructure",
    args: { organizationId: t.arg.id({ required: true }), siteId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => siteStructure(ctx, String(args.organizationId), String(args.siteId)),
  }),
}));

const AddSectionToSiteInput = builder.inputType("AddSectionToSiteInput", {
  fields: (t) => ({
    spaceId: t.string({ required: true, description: "The space of the section's first site space." }),
    title: t.string({ description: "2..128; default: the space's title." }),
    icon: t.string({ description: "Icon name, max 50." }),
  }),
});

const UpdateSiteSectionInput = builder.inputType("UpdateSiteSectionInput", {
  fields: (t) => ({
    title: t.string({ description: "2..128." }),
    path: t.string({ description: "1..100; unique among the site's sections (409 when taken)." }),
    defaultSiteSpace: t.string({ description: "Id of one of its site spaces." }),
    condition: t.string({ description: "Expression over `visitor.claims` (max 1024); null removes it." }),
    icon: t.string({ description: "Max 50; null removes it." }),
    description: t.string({ description: "Max 256; null removes it." }),
  }),
});

const SiteSectionPointerInput = builder.inputType("SiteSectionPointerInput", {
  fields: (t) => ({
    type: t.string({ required: true, description: "site-section" }),
    siteSection: t.string({ required: true }),
  }),
});

const SiteSectionMovePositionInput = builder.inputType("SiteSectionMovePositionInput", {
  fields: (t) => ({
    before: t.field({ type: SiteSectionPointerInput }),
    after: t.field({ type: SiteSectionPointerInput }),
  }),
});

const MoveSiteSectionInput = builder.inputType("MoveSiteSectionInput", {
  fields: (t) => ({ position: t.field({ type: SiteSectionMovePositionInput, description: "Omitted: to the end." }) }),
});

const SiteStructureItemPointerInput = builder.inputType("SiteStructureItemPointerInput", {
  fields: (t) => ({
    type: t.string({ required: true, description: "site-space, site-section or site-section-group." }),
    id: t.string({ required: true }),
  }),
});

const SortSiteStructureInput = builder.inputType("SortSiteStructureInput", {
  fields: (t) => ({
    item: t.field({ type: SiteStructureItemPointerInput, required: true }),
    position: t.field({
      type: builder.inputType("SiteStructureItemMovePositionInput", {
        fields: (p) => ({
          before: p.field({ type: SiteStructureItemPointerInput }),
          after: p.field({ type: SiteStructureItemPointerInput }),
        }),
      }),
      required: true,
      description: "Before or after a sibling; neither: to the end.",
    }),
  }),
});

builder.mutationFields((t) => {
  const siteArgs = { organizationId: t.arg.id({ required: true }), siteId: t.arg.id({ required: true }) };
  const sectionArgs = { ...siteArgs, siteSectionId: t.arg.id({ required: true }) };
  return {
    addSectionToSite: t.field({
      type: SiteSectionRef,
      args: { ...siteArgs, input: t.arg({ type: AddSectionToSiteInput, required: true }) },
      resolve: (_root, args, ctx) => addSiteSection(ctx, String(args.organizationId), String(args.siteId), args.input),
    }),
    updateSiteSectionById: t.field({
      type: SiteSectionRef,
      args: { ...sectionArgs, input: t.arg({ type: UpdateSiteSectionInput, required: true }) },
      resolve: (_root, args, ctx) =>
        updateSiteSection(
          ctx,
          String(args.organizationId),
          String(args.siteId),
          String(args.siteSectionId),
          args.input,
        ),
    }),
    deleteSiteSectionById: t.boolean({
      description: "Deletes the section and its site spaces; a section that does not exist succeeds.",
      args: sectionArgs,
      resolve: async (_root, args, ctx) => {
        await deleteSiteSection(ctx, String(args.organizationId), String(args.siteId), String(args.siteSectionId));
        return true;
      },
    }),
    moveSiteSection: t.field({
      type: SiteSectionRef,
      deprecationReason: "Use sortSiteStructure.",
      args: { ...sectionArgs, input: t.arg({ type: MoveSiteSectionInput }) },
      resolve: (_root, args, ctx) =>
        moveSiteSection(
          ctx,
          String(args.organizationId),
          String(args.siteId),
          String(args.siteSectionId),
          args.input ?? {},
        ),
    }),
    sortSiteStructure: t.field({
      type: SiteStructureItemRef,
      args: { ...siteArgs, input: t.arg({ type: SortSiteStructureInput, required: true }) },
      resolve: (_root, args, ctx) =>
        sortSiteStructure(ctx, String(args.organizationId), String(args.siteId), args.input) as Promise<
          SectionNode | GroupNode | SiteSpace
        >,
    }),
  };
});
