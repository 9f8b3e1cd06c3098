import type { LinkInvite } from "../../db/generated/client.ts";
import { builder } from "../../graphql/builder.ts";
import { RoleEnum } from "../../graphql/enums.ts";
import {
  createLinkInvite,
  deleteLinkInvite,
  getLinkInvite,
  isInviteRedundant,
  joinWithLinkInvite,
  listLinkInvites,
  loadVisibleLinkInvites,
  updateLinkInvite,
} from "./link-invite.service.ts";
import { OrganizationRef } from "./organization.graphql.ts";

const LinkInviteRef = builder.node(builder.objectRef<LinkInvite>("LinkInvite"), {
  description: "An invite link to an organization; its id is the link's secret.",
  id: { resolve: (row) => row.id },
  loadMany: (ids, ctx) => loadVisibleLinkInvites(ctx, ids),
  fields: (t) => ({
    role: t.expose("role", { type: RoleEnum, nullable: true }),
    redundant: t.boolean({
      description: "True when the caller already has at least this role.",
      resolve: (invite, _args, ctx) => isInviteRedundant(ctx, invite),
    }),
  }),
});

builder.objectFields(OrganizationRef, (t) => ({
  linkInvites: t.connection({
    type: LinkInviteRef,
    description: "listOrganizationInviteLinks (admins)",
    resolve: (organization, args, ctx) => listLinkInvites(ctx, organization.id, args),
  }),
  linkInvite: t.field({
    type: LinkInviteRef,
    description: "getOrganizationInviteLink (admins)",
    args: { id: t.arg.id({ required: true }) },
    resolve: (organization, args, ctx) => getLinkInvite(ctx, organization.id, String(args.id)),
  }),
}));

const LinkInviteInput = builder.inputType("LinkInviteInput", {
  fields: (t) => ({ role: t.field({ type: RoleEnum, description: "Null invites guests." }) }),
});

const JoinResultRef = builder.objectRef<Record<string, never>>("JoinOrganizationWithInviteResult").implement({
  fields: (t) => ({ joined: t.boolean({ resolve: () => true }) }),
});

builder.mutationFields((t) => {
  const inviteArgs = { organizationId: t.arg.id({ required: true }), inviteId: t.arg.id({ required: true }) };
  return {
    createOrganizationInvite: t.field({
      type: LinkInviteRef,
      args: { organizationId: t.arg.id({ required: true }), input: t.arg({ type: LinkInviteInput, required: true }) },
      resolve: (_root, args, ctx) => createLinkInvite(ctx, String(args.organizationId), args.input),
    }),
    updateOrganizationInviteById: t.field({
      type: LinkInviteRef,
      args: { ...inviteArgs, input: t.arg({ type: LinkInviteInput, required: true }) },
      resolve: (_root, args, ctx) =>
        updateLinkInvite(ctx, String(args.organizationId), String(args.inviteId), args.input),
    }),
    deleteOrganizationInviteById: t.boolean({
      description: "Deleting an invite that does not exist succeeds.",
      args: inviteArgs,
      resolve: async (_root, args, ctx) => {
        await deleteLinkInvite(ctx, String(args.organizationId), String(args.inviteId));
        return true;
      },
    }),
    joinOrganizationWithInvite: t.field({
      type: JoinResultRef,
      args: inviteArgs,
      resolve: async (_root, args, ctx) => {
        await joinWithLinkInvite(ctx, String(args.organizationId), String(args.inviteId));
        return {};
      },
    }),
  };
});
