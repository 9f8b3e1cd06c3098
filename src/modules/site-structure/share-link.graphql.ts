import { builder } from "../../graphql/builder.ts";
import { describeInputField } from "../../graphql/input-description.ts";
import {
  createShareLink,
  createShareLinkSchema,
  deleteShareLink,
  listShareLinks,
  type ShareLinkWithOrganization,
  shareLinkPublishedUrl,
  updateShareLink,
  updateShareLinkSchema,
} from "./share-link.service.ts";
import { SiteRef } from "./site.graphql.ts";
import { loadVisibleShareLinks } from "./site-nodes.service.ts";

const ShareLinkRef = builder.node(builder.objectRef<ShareLinkWithOrganization>("ShareLink"), {
  description: "A secret link that opens a `share-link` site's published content while it is active.",
  id: { resolve: (row) => row.id },
  loadMany: (ids, ctx) => loadVisibleShareLinks(ctx, ids),
  fields: (t) => ({
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When the link was created (ISO 8601)." }),
    name: t.exposeString("name", { nullable: true, description: "The link's name (at most 50 characters)." }),
    active: t.exposeBoolean("active", { description: "Whether its key opens the site; false once revoked." }),
    urls: t.field({
      type: builder.objectRef<{ published: string }>("ShareLinkUrls").implement({
        description: "Where a share link leads.",
        fields: (u) => ({
          published: u.exposeString("published", {
            description: "The site's published content, with the link's key as `shareKey`: the URL to hand out.",
          }),
        }),
      }),
      description: "Where the link leads.",
      resolve: (link, _args, ctx) => ({ published: shareLinkPublishedUrl(ctx, link) }),
    }),
  }),
});

builder.objectFields(SiteRef, (t) => ({
  shareLinks: t.connection({
    type: ShareLinkRef,
    description: "The site's share links, oldest first; organization admins (listSiteShareLinks).",
    args: {
      search: t.arg.string({ description: "A name (contains, ignoring case) or a link's exact key." }),
    },
    resolve: (site, args, ctx) => listShareLinks(ctx, site.organizationId, site.id, args, { search: args.search }),
  }),
}));

const CreateSiteShareLinkInput = builder.inputType("CreateSiteShareLinkInput", {
  description: "A new share link.",
  fields: (t) => ({
    name: t.string({ required: true, description: describeInputField(createShareLinkSchema, "name") }),
  }),
});

const UpdateSiteShareLinkInput = builder.inputType("UpdateSiteShareLinkInput", {
  description: "Changes to a share link: give `name`, `active` or both.",
  fields: (t) => ({
    active: t.boolean({ description: describeInputField(updateShareLinkSchema, "active") }),
    name: t.string({ description: describeInputField(updateShareLinkSchema, "name") }),
  }),
});

builder.mutationFields((t) => {
  const siteArgs = {
    organizationId: t.arg.id({ required: true, description: "The organization's id." }),
    siteId: t.arg.id({ required: true, description: "The site's id." }),
  };
  const linkArgs = { ...siteArgs, shareLinkId: t.arg.id({ required: true, description: "The share link's id." }) };
  return {
    createSiteShareLink: t.field({
      type: ShareLinkRef,
      description: "Creates an active share link with a new random key; organization admins (createSiteShareLink).",
      args: {
        ...siteArgs,
        input: t.arg({ type: CreateSiteShareLinkInput, required: true, description: "The new link." }),
      },
      resolve: (_root, args, ctx) => createShareLink(ctx, args.organizationId, args.siteId, args.input),
    }),
    updateSiteShareLinkById: t.field({
      type: ShareLinkRef,
      description: "Renames, revokes or restores a share link; organization admins (updateSiteShareLinkById).",
      args: {
        ...linkArgs,
        input: t.arg({ type: UpdateSiteShareLinkInput, required: true, description: "The changes." }),
      },
      resolve: (_root, args, ctx) =>
        updateShareLink(ctx, args.organizationId, args.siteId, args.shareLinkId, args.input),
    }),
    deleteSiteShareLinkById: t.boolean({
      description:
        "Deletes a share link: its key opens nothing any more. Deleting a share link that does not exist succeeds. " +
        "Organization admins; always true (deleteSiteShareLinkById).",
      args: linkArgs,
      resolve: async (_root, args, ctx) => {
        await deleteShareLink(ctx, args.organizationId, args.siteId, args.shareLinkId);
        return true;
      },
    }),
  };
});
