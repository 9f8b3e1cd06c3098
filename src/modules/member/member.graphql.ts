import type { Member } from "../../db/generated/client.ts";
import { builder } from "../../graphql/builder.ts";
import { RoleEnum, SortOrderEnum } from "../../graphql/enums.ts";
import { OrganizationRef } from "../organization/organization.graphql.ts";
import { memberSpaceCountLoader } from "../space/space.loaders.ts";
import { UserRef } from "../user/user.graphql.ts";
import { addOrganizationMemberByEmail, userByIdLoader } from "../user/user.service.ts";
import { memberTeamCountLoader } from "./member.loaders.ts";
import {
  getMember,
  listMembers,
  pingOrganization,
  removeMember,
  setMemberSso,
  updateMember,
} from "./member.service.ts";

export const MemberRef = builder.objectRef<Member>("Member").implement({
  description: "A user's membership of an organization. `id` is the user's id.",
  fields: (t) => ({
    id: t.exposeID("userId"),
    role: t.expose("role", {
      type: RoleEnum,
      nullable: true,
      description: "Null for guests.",
    }),
    user: t.field({
      type: UserRef,
      resolve: async (member, _args, ctx) => {
        const user = await userByIdLoader(ctx).load(member.userId);
        if (!user) throw new Error(`Member ${member.userId} has no user`);
        return user;
      },
    }),
    disabled: t.exposeBoolean("disabled"),
    joinedAt: t.expose("joinedAt", { type: "DateTime" }),
    lastSeenAt: t.expose("lastSeenAt", { type: "DateTime", nullable: true }),
    sso: t.exposeBoolean("sso"),
    spaceCount: t.int({
      description: "Spaces the member has an explicit permission on.",
      resolve: (member, _args, ctx) => memberSpaceCountLoader(ctx).load(member),
    }),
    teamCount: t.int({
      description: "Teams of the organization the member belongs to.",
      resolve: (member, _args, ctx) => memberTeamCountLoader(ctx).load(member),
    }),
  }),
});

const MemberRoleFilterEnum = builder.enumType("MemberRoleFilter", {
  description: "A role, or guest for members without one.",
  values: ["admin", "create", "review", "edit", "comment", "read", "guest"] as const,
});

const MemberSortEnum = builder.enumType("MemberSort", { values: ["joinedAt", "lastSeenAt"] as const });

builder.objectFields(OrganizationRef, (t) => ({
  members: t.connection({
    type: MemberRef,
    description: "listMembersInOrganizationById",
    args: {
      role: t.arg({ type: MemberRoleFilterEnum }),
      search: t.arg.string({ description: "Matches display names and emails." }),
      sort: t.arg({ type: MemberSortEnum, description: "Default joinedAt; lastSeenAt lists only active members." }),
      order: t.arg({ type: SortOrderEnum, description: "Default desc." }),
    },
    resolve: (organization, args, ctx) => listMembers(ctx, organization.id, args, args),
  }),
  member: t.field({
    type: MemberRef,
    description: "getMemberInOrganizationById",
    args: { userId: t.arg.id({ required: true }) },
    resolve: (organization, args, ctx) => getMember(ctx, organization.id, String(args.userId)),
  }),
}));

const UpdateMemberInput = builder.inputType("UpdateMemberInput", {
  fields: (t) => ({ role: t.field({ type: RoleEnum, description: "Null makes the member a guest." }) }),
});

const AddOrganizationMemberInput = builder.inputType("AddOrganizationMemberInput", {
  fields: (t) => ({
    email: t.string({ required: true }),
    displayName: t.string({ description: "Used when no user has this email yet." }),
    role: t.field({ type: RoleEnum }),
  }),
});

const PingResultRef = builder.objectRef<{ serviceVisitorClaims: string | null }>("OrganizationPingResult").implement({
  fields: (t) => ({ serviceVisitorClaims: t.exposeString("serviceVisitorClaims", { nullable: true }) }),
});

builder.mutationFields((t) => ({
  updateMemberInOrganizationById: t.field({
    type: MemberRef,
    args: {
      organizationId: t.arg.id({ required: true }),
      userId: t.arg.id({ required: true }),
      input: t.arg({ type: UpdateMemberInput, required: true }),
    },
    resolve: (_root, args, ctx) => updateMember(ctx, String(args.organizationId), String(args.userId), args.input),
  }),
  removeMemberFromOrganizationById: t.boolean({
    description: "Admins remove anyone; members may remove themselves. Removing a non-member succeeds.",
    args: { organizationId: t.arg.id({ required: true }), userId: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => {
      await removeMember(ctx, String(args.organizationId), String(args.userId));
      return true;
    },
  }),
  updateOrganizationMemberLastSeenAt: t.field({
    type: PingResultRef,
    description: "POST ORG/ping: records that the caller is active.",
    args: { organizationId: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => {
      await pingOrganization(ctx, String(args.organizationId));
      return { serviceVisitorClaims: null };
    },
  }),
  setUserAsSSOMemberForOrganization: t.field({
    type: MemberRef,
    args: { organizationId: t.arg.id({ required: true }), userId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => setMemberSso(ctx, String(args.organizationId), String(args.userId)),
  }),
  addOrganizationMember: t.field({
    type: MemberRef,
    description: "Admins: adds a person by email, creating their user if needed.",
    args: {
      organizationId: t.arg.id({ required: true }),
      input: t.arg({ type: AddOrganizationMemberInput, required: true }),
    },
    resolve: (_root, args, ctx) => addOrganizationMemberByEmail(ctx, String(args.organizationId), args.input),
  }),
}));
