import { builder } from "../../graphql/builder.ts";
import {
  createShareLink,
  deleteShareLink,
  listShareLinks,
  type ShareLinkWithOrganization,
  shareLinkPublishedUrl,
  updateShareLink,
} from "./share-link.service.ts";
import { SiteRef } from "./site.graphql.ts";
import { loadVisibleShareLinks } from "./site-nodes.service.ts";

const ShareLinkRef = builder.node(builder.objectRef<ShareLinkWithOrganization>("ShareLink"), {
  description: "A secret link that opens a `share-link` site's published content while it is active.",
  id: { resolve: (row) => row.id },
  loadMany: (ids, ctx) => loadVisibleShareLinks(ctx, ids),
  fields: (t) => ({
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    name: t.exposeString("name", { nullable: true }),
    active: t.exposeBoolean("active"),
    urls: t.field({
      type: builder.objectRef<{ published: string }>("ShareLinkUrls").implement({
        fields: (u) => ({
          published: u.exposeString("published", { description: "The published content, opened by the link's key." }),
        }),
      }),
      resolve: (link, _args, ctx) => ({ published: shareLinkPublishedUrl(ctx, link) }),
    }),
  }),
});

builder.objectFields(SiteRef, (t) => ({
  shareLinks: t.connection({
    type: ShareLinkRef,
    description: "listSiteShareLinks (organization admins)",
    args: { search: t.arg.string({ description: "Name (contains, case-insensitive) or exact key." }) },
    resolve: (site, args, ctx) => listShareLinks(ctx, site.organizationId, site.id, args, { search: args.search }),
  }),
}));

const CreateSiteShareLinkInput = builder.inputType("CreateSiteShareLinkInput", {
  fields: (t) => ({ name: t.string({ required: true, description: "0..50 characters." }) }),
});

const UpdateSiteShareLinkInput = builder.inputType("UpdateSiteShareLinkInput", {
  fields: (t) => ({
    active: t.boolean({ description: "false revokes the link: its key opens nothing any more." }),
    name: t.string({ description: "0..50 characters." }),
  }),
});

builder.mutationFields((t) => {
  const siteArgs = { organizationId: t.arg.id({ required: true }), siteId: t.arg.id({ required: true }) };
  const linkArgs = { ...siteArgs, shareLinkId: t.arg.id({ required: true }) };
  return {
    createSiteShareLink: t.field({
      type: ShareLinkRef,
      args: { ...siteArgs, input: t.arg({ type: CreateSiteShareLinkInput, required: true }) },
      resolve: (_root, args, ctx) => createShareLink(ctx, String(args.organizationId), String(args.siteId), args.input),
    }),
    updateSiteShareLinkById: t.field({
      type: ShareLinkRef,
      args: { ...linkArgs, input: t.arg({ type: UpdateSiteShareLinkInput, required: true }) },
      resolve: (_root, args, ctx) =>
        updateShareLink(ctx, String(args.organizationId), String(args.siteId), String(args.shareLinkId), args.input),
    }),
    deleteSiteShareLinkById: t.boolean({
      description: "Deleting a share link that does not exist succeeds.",
      args: linkArgs,
      resolve: async (_root, args, ctx) => {
        await deleteShareLink(ctx, String(args.organizationId), String(args.siteId), String(args.shareLinkId));
        return true;
      },
    }),
  };
});
