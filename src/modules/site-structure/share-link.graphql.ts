import { builder } from "../../graphql/builder.ts";
import { describeInputField } from "../../graphql/input-description.ts";
import { idColumn } from "../../graphql/node-ids.ts";
import { describeMutation, payloadType } from "../../graphql/payload.ts";
import { type Edge, edgeOf } from "../../paging/pagination.ts";
import { siteByIdArgs, siteParentArgs } from "./parent-args.graphql.ts";
import {
  createShareLink,
  createShareLinkSchema,
  deleteShareLink,
  listShareLinks,
  type ShareLinkWithOrganization,
  shareLinkOrder,
  shareLinkPublishedUrl,
  updateShareLink,
  updateShareLinkSchema,
} from "./share-link.service.ts";
import { SiteRef } from "./site.graphql.ts";
import { loadVisibleShareLinks } from "./site-nodes.service.ts";

export const ShareLinkRef = builder.node(builder.objectRef<ShareLinkWithOrganization>("ShareLink"), {
  description: "A secret link that opens a `share-link` site's published content while it is active.",
  id: idColumn,
  loadMany: (ids, ctx) => loadVisibleShareLinks(ctx, ids),
  fields: (t) => ({
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When the link was created (ISO 8601)." }),
    name: t.exposeString("name", { nullable: true, description: "The link's name (at most 50 characters)." }),
    active: t.exposeBoolean("active", { description: "Whether its key opens the site; false once revoked." }),
    urls: t.field({
      type: builder.objectRef<{ published: string }>("ShareLinkURLs").implement({
        description: "Where a share link leads.",
        fields: (u) => ({
          published: u.expose("published", {
            type: "URL",
            description: "The site's published content, with the link's key as `shareKey`: the URL to hand out.",
          }),
        }),
      }),
      description: "Where the link leads.",
      resolve: (link, _args, ctx) => ({ published: shareLinkPublishedUrl(ctx, link) }),
    }),
  }),
});

/** The edge of a site's `shareLinks`, shared with `createSiteShareLink`'s payload. */
const ShareLinkEdgeRef = builder.edgeObject({ type: ShareLinkRef, name: "SiteShareLinksConnectionEdge" });

builder.objectFields(SiteRef, (t) => ({
  shareLinks: t.connection(
    {
      type: ShareLinkRef,
      description: "The site's share links, oldest first; organization admins (listSiteShareLinks).",
      args: {
        search: t.arg.string({ description: "A name (contains, ignoring case) or a link's exact key." }),
      },
      resolve: (site, args, ctx) => listShareLinks(ctx, site.organizationId, site.id, args, { search: args.search }),
    },
    {},
    ShareLinkEdgeRef,
  ),
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

const CreateSiteShareLinkPayloadRef = payloadType<{
  shareLink: ShareLinkWithOrganization;
  shareLinkEdge: Edge<ShareLinkWithOrganization>;
}>("createSiteShareLink", {
  shareLink: { type: ShareLinkRef, description: "The new share link." },
  shareLinkEdge: { type: ShareLinkEdgeRef, description: "The new link's edge in the site's `shareLinks`." },
});
const UpdateSiteShareLinkPayloadRef = payloadType<{ shareLink: ShareLinkWithOrganization }>("updateSiteShareLink", {
  shareLink: { type: ShareLinkRef, description: "The share link, changed." },
});
const DeleteSiteShareLinkPayloadRef = payloadType<{ deletedId: string }>("deleteSiteShareLink", {
  deletedId: { type: "ID", description: "The deleted share link's id (for Relay's `@deleteRecord`)." },
});

const shareLinkErrors = {
  NOT_FOUND: "no such organization, site or share link for the caller",
  FORBIDDEN: "not an organization admin",
} as const;

builder.mutationFields((t) => {
  const linkArgs = {
    ...siteParentArgs("share link"),
    shareLinkId: t.arg.id({ required: true, description: "The share link's id." }),
  };
  return {
    createSiteShareLink: t.field({
      type: CreateSiteShareLinkPayloadRef,
      ...describeMutation(
        "Creates an active share link with a new random key; organization admins (createSiteShareLink).",
        { ...shareLinkErrors, BAD_USER_INPUT: "invalid input" },
      ),
      args: {
        ...siteByIdArgs,
        input: t.arg({ type: CreateSiteShareLinkInput, required: true, description: "The new link." }),
      },
      resolve: async (_root, args, ctx) => {
        const shareLink = await createShareLink(ctx, args.organizationId, args.siteId, args.input);
        return { shareLink, shareLinkEdge: edgeOf(shareLinkOrder, shareLink) };
      },
    }),
    updateSiteShareLink: t.field({
      type: UpdateSiteShareLinkPayloadRef,
      ...describeMutation("Renames, revokes or restores a share link; organization admins (updateSiteShareLinkById).", {
        ...shareLinkErrors,
        BAD_USER_INPUT: "invalid input",
      }),
      args: {
        ...linkArgs,
        input: t.arg({ type: UpdateSiteShareLinkInput, required: true, description: "The changes." }),
      },
      resolve: async (_root, args, ctx) => ({
        shareLink: await updateShareLink(ctx, args.organizationId, args.siteId, args.shareLinkId, args.input),
      }),
    }),
    deleteSiteShareLink: t.field({
      type: DeleteSiteShareLinkPayloadRef,
      ...describeMutation(
        "Deletes a share link: its key opens nothing any more. Deleting a share link that does not exist succeeds. " +
          "Organization admins (deleteSiteShareLinkById).",
        { NOT_FOUND: "no such organization or site for the caller", FORBIDDEN: "not an organization admin" },
      ),
      args: linkArgs,
      resolve: async (_root, args, ctx) => {
        await deleteShareLink(ctx, args.organizationId, args.siteId, args.shareLinkId);
        return { deletedId: args.shareLinkId };
      },
    }),
  };
});
