import type { LinkInvite } from "../../db/generated/client.ts";
import { builder } from "../../graphql/builder.ts";
import { RoleEnum } from "../../graphql/enums.ts";
import { describeInputField } from "../../graphql/input-description.ts";
import { idColumn } from "../../graphql/node-ids.ts";
import { describeMutation, payloadType } from "../../graphql/payload.ts";
import { edgeOf } from "../../paging/pagination.ts";
import {
  createLinkInvite,
  deleteLinkInvite,
  getLinkInvite,
  isInviteRedundant,
  joinWithLinkInvite,
  linkInviteOrder,
  linkInviteSchema,
  listLinkInvites,
  loadVisibleLinkInvites,
  updateLinkInvite,
} from "./link-invite.service.ts";
import { addOrganizationParent, OrganizationRef } from "./organization.graphql.ts";
import { getOrganization } from "./organization.service.ts";

const LinkInviteRef = builder.node(builder.objectRef<LinkInvite>("LinkInvite"), {
  description: "An invite link to an organization; its id is the link's secret.",
  id: idColumn,
  loadMany: (ids, ctx) => loadVisibleLinkInvites(ctx, ids),
  fields: (t) => ({
    role: t.expose("role", {
      type: RoleEnum,
      nullable: true,
      description: "The organization role the link gives; null: joiners become guests.",
    }),
    redundant: t.boolean({
      description: "True when the caller is already a member with at least this role.",
      resolve: (invite, _args, ctx) => isInviteRedundant(ctx, invite),
    }),
  }),
});

/** The edge of an organization's `linkInvites`, shared with `createOrganizationInvite`'s payload. */
const LinkInviteEdgeRef = builder.edgeObject({ type: LinkInviteRef, name: "OrganizationLinkInvitesConnectionEdge" });

builder.objectFields(OrganizationRef, (t) => ({
  linkInvites: t.connection(
    {
      type: LinkInviteRef,
      description: "The organization's invite links, oldest first; organization admins (listOrganizationInviteLinks).",
      resolve: (organization, args, ctx) => listLinkInvites(ctx, organization.id, args),
    },
    {},
    LinkInviteEdgeRef,
  ),
  linkInvite: t.field({
    type: LinkInviteRef,
    description: "One invite link; organization admins (getOrganizationInviteLink).",
    args: { id: t.arg.id({ required: true, description: "The invite's id." }) },
    resolve: (organization, args, ctx) => getLinkInvite(ctx, organization.id, args.id),
  }),
}));

const LinkInviteInput = builder.inputType("LinkInviteInput", {
  description: "An invite link's role.",
  fields: (t) => ({ role: t.field({ type: RoleEnum, description: describeInputField(linkInviteSchema, "role") }) }),
});

const CreateOrganizationInvitePayloadRef = payloadType<{
  linkInvite: typeof LinkInviteRef.$inferType;
  linkInviteEdge: typeof LinkInviteEdgeRef.$inferType;
}>("createOrganizationInvite", {
  linkInvite: { type: LinkInviteRef, description: "The new invite link." },
  linkInviteEdge: {
    type: LinkInviteEdgeRef,
    description: "The new invite's edge in the organization's `linkInvites`.",
  },
});

const UpdateOrganizationInvitePayloadRef = payloadType<{ linkInvite: typeof LinkInviteRef.$inferType }>(
  "updateOrganizationInvite",
  {
    linkInvite: { type: LinkInviteRef, description: "The invite link, changed." },
  },
);

const DeleteOrganizationInvitePayloadRef = payloadType<{ deletedId: string }>("deleteOrganizationInvite", {
  deletedId: { type: "ID", description: "The deleted invite's id (for Relay's `@deleteRecord`)." },
});

const JoinOrganizationWithInvitePayloadRef = payloadType<{
  joined: boolean;
  organization: typeof OrganizationRef.$inferType;
}>("joinOrganizationWithInvite", {
  joined: { type: "Boolean", description: "Always true: the caller is a member." },
  organization: { type: OrganizationRef, description: "The organization joined." },
});

builder.mutationFields((t) => {
  const organizationId = t.arg.id({ required: true, description: "The organization's id." });
  const inviteArgs = {
    organizationId: t.arg.id({
      description: "The organization's id. Optional: the invite names it; when given and not its own, NOT_FOUND.",
    }),
    inviteId: t.arg.id({ required: true, description: "The invite's id." }),
  };
  return {
    createOrganizationInvite: t.field({
      type: CreateOrganizationInvitePayloadRef,
      ...describeMutation("Creates an invite link; organization admins (createOrganizationInvite).", {
        NOT_FOUND: "no such organization or invite for the caller",
        FORBIDDEN: "not an organization admin",
        BAD_USER_INPUT: "invalid role",
      }),
      args: { organizationId, input: t.arg({ type: LinkInviteInput, required: true, description: "Its role." }) },
      resolve: async (_root, args, ctx) => {
        const linkInvite = await createLinkInvite(ctx, args.organizationId, args.input);
        return { linkInvite, linkInviteEdge: edgeOf(linkInviteOrder, linkInvite) };
      },
    }),
    updateOrganizationInvite: t.field({
      type: UpdateOrganizationInvitePayloadRef,
      ...describeMutation("Changes an invite link's role; organization admins (updateOrganizationInviteById).", {
        NOT_FOUND: "no such organization or invite for the caller",
        FORBIDDEN: "not an organization admin",
        BAD_USER_INPUT: "invalid role",
      }),
      args: { ...inviteArgs, input: t.arg({ type: LinkInviteInput, required: true, description: "Its new role." }) },
      resolve: async (_root, args, ctx) => ({
        linkInvite: await updateLinkInvite(ctx, args.organizationId, args.inviteId, args.input),
      }),
    }),
    deleteOrganizationInvite: t.field({
      type: DeleteOrganizationInvitePayloadRef,
      ...describeMutation(
        "Deletes an invite link; deleting an invite that does not exist succeeds when `organizationId` is given. " +
          "Organization admins (deleteOrganizationInviteById).",
        {
          NOT_FOUND: "no such organization for the caller; without `organizationId`, no such invite for the caller",
          FORBIDDEN: "not an organization admin",
        },
      ),
      args: inviteArgs,
      resolve: async (_root, args, ctx) => {
        await deleteLinkInvite(ctx, args.organizationId, args.inviteId);
        return { deletedId: args.inviteId };
      },
    }),
    joinOrganizationWithInvite: t.field({
      type: JoinOrganizationWithInvitePayloadRef,
      ...describeMutation(
        "Joins the organization through an invite link: a new member gets its role, a member keeps the higher of " +
          "theirs and its. Any signed-in user with the link, while the organization allows invite links " +
          "(joinOrganizationWithInvite).",
        { NOT_FOUND: "no such organization or invite", FORBIDDEN: "the organization does not allow invite links" },
      ),
      args: inviteArgs,
      resolve: async (_root, args, ctx) => {
        const organizationId = await joinWithLinkInvite(ctx, args.organizationId, args.inviteId);
        return { joined: true, organization: await getOrganization(ctx, organizationId) };
      },
    }),
  };
});

addOrganizationParent(LinkInviteRef);
