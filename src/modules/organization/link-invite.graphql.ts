import type { LinkInvite } from "../../db/generated/client.ts";
import { builder } from "../../graphql/builder.ts";
import { RoleEnum } from "../../graphql/enums.ts";
import { describeInputField } from "../../graphql/input-description.ts";
import {
  createLinkInvite,
  deleteLinkInvite,
  getLinkInvite,
  isInviteRedundant,
  joinWithLinkInvite,
  linkInviteSchema,
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

builder.objectFields(OrganizationRef, (t) => ({
  linkInvites: t.connection({
    type: LinkInviteRef,
    description: "The organization's invite links, oldest first; organization admins (listOrganizationInviteLinks).",
    resolve: (organization, args, ctx) => listLinkInvites(ctx, organization.id, args),
  }),
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

const JoinResultRef = builder.objectRef<Record<string, never>>("JoinOrganizationWithInviteResult").implement({
  description: "The outcome of joining through an invite link.",
  fields: (t) => ({ joined: t.boolean({ description: "Always true: the caller is a member.", resolve: () => true }) }),
});

builder.mutationFields((t) => {
  const organizationId = t.arg.id({ required: true, description: "The organization's id." });
  const inviteArgs = { organizationId, inviteId: t.arg.id({ required: true, description: "The invite's id." }) };
  return {
    createOrganizationInvite: t.field({
      type: LinkInviteRef,
      description: "Creates an invite link; organization admins (createOrganizationInvite).",
      args: { organizationId, input: t.arg({ type: LinkInviteInput, required: true, description: "Its role." }) },
      resolve: (_root, args, ctx) => createLinkInvite(ctx, args.organizationId, args.input),
    }),
    updateOrganizationInviteById: t.field({
      type: LinkInviteRef,
      description: "Changes an invite link's role; organization admins (updateOrganizationInviteById).",
      args: { ...inviteArgs, input: t.arg({ type: LinkInviteInput, required: true, description: "Its new role." }) },
      resolve: (_root, args, ctx) => updateLinkInvite(ctx, args.organizationId, args.inviteId, args.input),
    }),
    deleteOrganizationInviteById: t.boolean({
      description:
        "Deletes an invite link; deleting an invite that does not exist succeeds. Organization admins; always " +
        "true (deleteOrganizationInviteById).",
      args: inviteArgs,
      resolve: async (_root, args, ctx) => {
        await deleteLinkInvite(ctx, args.organizationId, args.inviteId);
        return true;
      },
    }),
    joinOrganizationWithInvite: t.field({
      type: JoinResultRef,
      description:
        "Joins the organization through an invite link: a new member gets its role, a member keeps the higher of " +
        "theirs and its. Any signed-in user with the link, while the organization allows invite links " +
        "(joinOrganizationWithInvite).",
      args: inviteArgs,
      resolve: async (_root, args, ctx) => {
        await joinWithLinkInvite(ctx, args.organizationId, args.inviteId);
        return {};
      },
    }),
  };
});
