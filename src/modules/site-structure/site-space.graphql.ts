import type { SiteSpace } from "../../db/generated/client.ts";
import { builder } from "../../graphql/builder.ts";
import { SpaceRef } from "../space/space.graphql.ts";
import { siteSpaceSpace } from "./site.access.ts";
import { SiteRef } from "./site.graphql.ts";
import { loadVisibleSiteSpaces } from "./site-nodes.service.ts";
import {
  addSiteSpace,
  deleteSiteSpace,
  isDefaultSiteSpace,
  listSiteSpaces,
  moveSiteSpace,
  siteSpacesOfSite,
  updateSiteSpace,
} from "./site-space.service.ts";
import { siteSpaceUrls, structureUrlsRef } from "./urls.ts";

export const SiteSpaceRef = builder.objectRef<SiteSpace>("SiteSpace");

builder.node(SiteSpaceRef, {
  description: "A space placed on a site at a path, at the site root or in a section.",
  id: { resolve: (row) => row.id },
  loadMany: (ids, ctx) => loadVisibleSiteSpaces(ctx, ids),
  fields: (t) => ({
    path: t.exposeString("path"),
    section: t.exposeID("sectionId", { nullable: true, description: "Id of its section; null at the site root." }),
    space: t.field({
      type: SpaceRef,
      nullable: true,
      description: "Its space; null to a signed-in caller who may not read that space.",
      resolve: (siteSpace, _args, ctx) => siteSpaceSpace(ctx, siteSpace),
    }),
    title: t.string({
      description: "The site space's title: its space's title, or its path to a caller who may not read the space.",
      resolve: async (siteSpace, _args, ctx) =>
        siteSpace.title ?? (await siteSpaceSpace(ctx, siteSpace))?.title ?? siteSpace.path,
    }),
    default: t.boolean({
      description: "Whether it is the default site space of its scope (its section, or the site root).",
      resolve: (siteSpace, _args, ctx) => isDefaultSiteSpace(ctx, siteSpace),
    }),
    condition: t.exposeString("condition", { nullable: true }),
    hasAdvancedCustomizationFeature: t.boolean({
      description: "Always false: there are no plans here.",
      resolve: () => false,
    }),
    urls: t.field({ type: structureUrlsRef, resolve: (siteSpace, _args, ctx) => siteSpaceUrls(ctx, siteSpace) }),
  }),
});

builder.objectFields(SiteRef, (t) => ({
  siteSpaces: t.connection({
    type: SiteSpaceRef,
    description: "Every site space of the site, at its root and in its sections (listSiteSpaces).",
    resolve: (site, args, ctx) => siteSpacesOfSite(ctx, site, args),
  }),
}));

builder.queryFields((t) => ({
  siteSpaces: t.connection({
    type: SiteSpaceRef,
    description:
      "listSiteSpaces: every site space of the site (root and sections). Open without a token with an active " +
      "`shareKey` of a share-link site.",
    args: {
      organizationId: t.arg.id({ required: true }),
      siteId: t.arg.id({ required: true }),
      shareKey: t.arg.string(),
      default: t.arg.boolean({ description: "true: only default site spaces; false: only the others." }),
    },
    resolve: (_root, args, ctx) =>
      listSiteSpaces(ctx, String(args.organizationId), String(args.siteId), args, {
        shareKey: args.shareKey,
        default: args.default,
      }),
  }),
}));

const AddSpaceToSiteInput = builder.inputType("AddSpaceToSiteInput", {
  fields: (t) => ({
    spaceId: t.string({ required: true }),
    sectionId: t.string({ description: "Default: the site's default section, or the root for sites without one." }),
  }),
});

const UpdateSiteSpaceInput = builder.inputType("UpdateSiteSpaceInput", {
  fields: (t) => ({
    path: t.string({ description: "1..100; unique among the site spaces of its scope (409 when taken)." }),
    condition: t.string({ description: "Expression over `visitor.claims` (max 1024); null removes it." }),
    spaceId: t.string({ description: "The space the site space shows." }),
  }),
});

const SiteSpacePointerInput = builder.inputType("SiteSpacePointerInput", {
  fields: (t) => ({
    type: t.string({ required: true, description: "site-space" }),
    siteSpace: t.string({ required: true }),
  }),
});

const SiteSpaceMovePositionInput = builder.inputType("SiteSpaceMovePositionInput", {
  fields: (t) => ({
    before: t.field({ type: SiteSpacePointerInput }),
    after: t.field({ type: SiteSpacePointerInput }),
  }),
});

const MoveSiteSpaceInput = builder.inputType("MoveSiteSpaceInput", {
  fields: (t) => ({ position: t.field({ type: SiteSpaceMovePositionInput, description: "Omitted: to the end." }) }),
});

builder.mutationFields((t) => {
  const siteArgs = { organizationId: t.arg.id({ required: true }), siteId: t.arg.id({ required: true }) };
  const siteSpaceArgs = { ...siteArgs, siteSpaceId: t.arg.id({ required: true }) };
  return {
    addSpaceToSite: t.field({
      type: SiteSpaceRef,
      args: { ...siteArgs, input: t.arg({ type: AddSpaceToSiteInput, required: true }) },
      resolve: (_root, args, ctx) => addSiteSpace(ctx, String(args.organizationId), String(args.siteId), args.input),
    }),
    updateSiteSpaceById: t.field({
      type: SiteSpaceRef,
      args: { ...siteSpaceArgs, input: t.arg({ type: UpdateSiteSpaceInput, required: true }) },
      resolve: (_root, args, ctx) =>
        updateSiteSpace(ctx, String(args.organizationId), String(args.siteId), String(args.siteSpaceId), args.input),
    }),
    deleteSiteSpaceById: t.boolean({
      description: "Deleting a site space that does not exist succeeds.",
      args: siteSpaceArgs,
      resolve: async (_root, args, ctx) => {
        await deleteSiteSpace(ctx, String(args.organizationId), String(args.siteId), String(args.siteSpaceId));
        return true;
      },
    }),
    moveSiteSpace: t.field({
      type: SiteSpaceRef,
      deprecationReason: "Use sortSiteStructure.",
      args: { ...siteSpaceArgs, input: t.arg({ type: MoveSiteSpaceInput }) },
      resolve: (_root, args, ctx) =>
        moveSiteSpace(
          ctx,
          String(args.organizationId),
          String(args.siteId),
          String(args.siteSpaceId),
          args.input ?? {},
        ),
    }),
  };
});
