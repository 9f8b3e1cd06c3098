import { builder } from "../../graphql/builder.ts";
import { publicEnum } from "../../graphql/enums.ts";
import { checkedByService } from "../../graphql/service-check.ts";
import { RevisionFileRef, RevisionPageRef, RevisionRef, revisionOf } from "../content/content.public.ts";
import { OrganizationRef, organizationOfReadable } from "../organization/organization.public.ts";
import { SpaceRef } from "../space/space.public.ts";
import {
  type ContentLink,
  type ContentLocation,
  type LinkPage,
  type LinkStats,
  linkStatusSchema,
  listBacklinks,
  listLinks,
  locationSpace,
  pageLocation,
} from "./link.service.ts";

const ContentLocationKindEnum = publicEnum<string>("ContentLocationKind", "What a content location points at.", {
  page: "A page, with an optional anchor.",
  file: "A file of the space.",
  space: "A space.",
  url: "An absolute URL.",
});

const ContentLinkStatusEnum = publicEnum<string>("ContentLinkStatus", "Whether a link target resolves.", {
  ok: "The target exists.",
  broken: "The target is not in the revision.",
  "in-app": "A URL of this server.",
});

const ContentLocationRef = builder.objectRef<ContentLocation>("ContentLocation").implement({
  description: "An absolute reference to content: a page (with an anchor), a file, a space, or a URL.",
  fields: (t) => ({
    kind: t.field({
      type: ContentLocationKindEnum,
      description: "What it points at.",
      resolve: (location) => location.kind,
    }),
    url: t.string({
      nullable: true,
      description: "URLs: the address; null for other kinds.",
      resolve: (location) => (location.kind === "url" ? location.url : null),
    }),
    organization: t.field({
      type: OrganizationRef,
      nullable: true,
      description: "The organization of the space; null for URLs.",
      resolve: async (location, _args, ctx) => {
        const space = await locationSpace(ctx, location);
        return space ? organizationOfReadable(ctx, space) : null;
      },
    }),
    space: t.field({
      type: SpaceRef,
      nullable: true,
      description: "The space of the page or file, or the space linked to; null for URLs.",
      resolve: (location, _args, ctx) => locationSpace(ctx, location),
    }),
    page: t.field({
      type: RevisionPageRef,
      nullable: true,
      description: "Pages: the page, in the revision listed; null for other kinds.",
      resolve: (location) => (location.kind === "page" ? location.page : null),
    }),
    file: t.field({
      type: RevisionFileRef,
      nullable: true,
      description: "Files: the file, in the revision listed; null for other kinds.",
      resolve: (location) => (location.kind === "file" ? location.file : null),
    }),
    internalLocation: t.field({
      type: "JSON",
      nullable: true,
      description: "Pages: the anchor linked to, as `{ type: anchor, anchor }`.",
      resolve: (location) =>
        location.kind === "page" && location.anchor ? { type: "anchor", anchor: location.anchor } : null,
    }),
  }),
});

const LinkStatsRef = builder.objectRef<LinkStats>("ContentLinkStats").implement({
  description: "Counts of link targets over the whole list, whatever the status filter.",
  fields: (t) => ({
    total: t.exposeInt("total", { description: "Link targets in all." }),
    broken: t.field({
      type: builder.objectRef<LinkStats["broken"]>("ContentLinkBrokenStats").implement({
        description: "Counts of broken link targets.",
        fields: (b) => ({
          total: b.exposeInt("total", { description: "Broken link targets in all." }),
          changeRequest: b.exposeInt("changeRequest", {
            description: "Broken targets that are not broken in the space's current content; 0 for that content.",
          }),
        }),
      }),
      description: "The broken ones.",
      resolve: (stats) => stats.broken,
    }),
  }),
});

const ContentLinkRef = builder.objectRef<ContentLink>("ContentLink").implement({
  description: "A link target and the pages linking to it.",
  fields: (t) => ({
    status: t.field({
      type: ContentLinkStatusEnum,
      description: "Whether the target resolves.",
      resolve: (link) => link.status,
    }),
    relation: t.string({ description: "Always reference.", resolve: () => "reference" }),
    targetReference: t.field({
      type: ContentLocationRef,
      description: "What is linked to.",
      resolve: (link) => link.target,
    }),
    locationReferences: t.field({
      type: [ContentLocationRef],
      description: "The pages where a link to the target is found, in tree order.",
      resolve: (link) => link.sources.map(pageLocation),
    }),
  }),
});

const statusArgument = "Only the targets with this status; default all.";
/** Links and backlinks resolve every link of the revision's pages (estimateCost units, src/lib/query-cost.ts). */
const linksCost = { cost: { weight: 2_000 } };

const ContentLinkConnectionRef = builder.connectionObject({
  type: ContentLinkRef,
  name: "ContentLinkConnection",
  description: "A page of link targets, with counts over the whole list.",
  fields: (c) => ({
    stats: c.field({
      type: LinkStatsRef,
      description: "Counts over the whole list, whatever the status filter.",
      resolve: (connection) => (connection as unknown as LinkPage).stats,
    }),
  }),
});

builder.objectFields(RevisionRef, (t) => ({
  links: t.connection(
    {
      type: ContentLinkRef,
      description: "The revision's links, one item per target (listSpaceLinks).",
      extensions: linksCost,
      args: {
        status: t.arg({
          type: ContentLinkStatusEnum,
          description: statusArgument,
          extensions: checkedByService(linkStatusSchema, 0),
        }),
      },
      resolve: (revision, args, ctx) => listLinks(ctx, revision, { status: args.status }, args),
    },
    ContentLinkConnectionRef,
  ),
}));

builder.objectFields(RevisionPageRef, (t) => ({
  links: t.connection(
    {
      type: ContentLinkRef,
      description: "The page's links, one item per target (listPageLinksInSpace, listPageLinksInChangeRequest).",
      extensions: linksCost,
      args: {
        status: t.arg({
          type: ContentLinkStatusEnum,
          description: statusArgument,
          extensions: checkedByService(linkStatusSchema, 0),
        }),
      },
      resolve: async (node, args, ctx) =>
        listLinks(ctx, await revisionOf(ctx, node.revisionId), { pageId: node.page.id, status: args.status }, args),
    },
    ContentLinkConnectionRef,
  ),
  backlinks: t.connection({
    type: ContentLocationRef,
    description: "The pages of the revision linking to this page (listSpacePageBacklinks).",
    extensions: linksCost,
    resolve: async (node, args, ctx) =>
      listBacklinks(ctx, await revisionOf(ctx, node.revisionId), { pageId: node.page.id }, args),
  }),
}));

builder.objectFields(RevisionFileRef, (t) => ({
  backlinks: t.connection({
    type: ContentLocationRef,
    description:
      "The pages of the revision linking to this file (listSpaceFileBacklinks, listChangeRequestFileBacklinks).",
    extensions: linksCost,
    resolve: async (file, args, ctx) =>
      listBacklinks(ctx, await revisionOf(ctx, file.revisionId), { fileId: file.id }, args),
  }),
}));
