import type { Member } from "../../db/generated/client.ts";
import { builder } from "../../graphql/builder.ts";
import { publicEnum, RoleEnum } from "../../graphql/enums.ts";
import { describeInputField } from "../../graphql/input-description.ts";
import { dateBoundFields, orderByDescription, orderInput } from "../../graphql/list-order.ts";
import { loadBranded } from "../../graphql/node-ids.ts";
import { describeMutation, payloadType } from "../../graphql/payload.ts";
import { edgeOf } from "../../paging/pagination.ts";
import { pairIdOf } from "../../platform/ids.ts";
import { membershipOrganization, OrganizationRef } from "../organization/organization.public.ts";
import { addOrganizationMemberByEmail, addUserSchema, UserRef, userByIdLoader } from "../user/user.public.ts";
import { memberSpaceCountLoader, memberTeamCountLoader } from "./member.loaders.ts";
import {
  getMember,
  listMembers,
  loadVisibleMembers,
  memberFilterSchema,
  memberListOrder,
  memberOrder,
  pingOrganization,
  removeMember,
  setMemberSso,
  updateMember,
  updateMemberSchema,
} from "./member.service.ts";

export const MemberRef = builder.objectRef<Member>("Member");

builder.node(MemberRef, {
  extensions: { restObjectName: "member" },
  description: "A user's membership of an organization: one per organization, each with its own id.",
  id: { resolve: (member) => pairIdOf("Member", member.organizationId, member.userId) },
  ...loadBranded(MemberRef, (ids, ctx) => loadVisibleMembers(ctx, ids)),
  fields: (t) => ({
    userId: t.exposeID("userId", { description: "The member's user id (the id of `user`)." }),
    organizationId: t.exposeID("organizationId", { description: "The organization's id (the id of `organization`)." }),
    organization: t.field({
      type: OrganizationRef,
      description: "The organization the membership is of.",
      resolve: (member, _args, ctx) => membershipOrganization(ctx, member),
    }),
    role: t.expose("role", {
      extensions: { restKeepsNull: true },
      type: RoleEnum,
      nullable: true,
      description: "The member's organization role; null for guests (who see only the spaces they are invited to).",
    }),
    user: t.field({
      type: UserRef,
      description: "The member's user.",
      resolve: async (member, _args, ctx) => {
        const user = await userByIdLoader(ctx).load(member.userId);
        if (!user) throw new Error(`Member ${member.userId} has no user`);
        return user;
      },
    }),
    disabled: t.exposeBoolean("disabled", { description: "Whether the membership is disabled: it gives no access." }),
    joinedAt: t.expose("joinedAt", { type: "DateTime", description: "When they joined (ISO 8601)." }),
    lastSeenAt: t.expose("lastSeenAt", {
      type: "DateTime",
      nullable: true,
      description: "When they were last active in the organization (ISO 8601); null if never.",
    }),
    sso: t.exposeBoolean("sso", {
      description: "Whether they are an SSO member: when the organization requires single sign-on, only these get in.",
    }),
    spaceCount: t.int({
      description: "Number of spaces the member has an explicit permission on (own or through a team).",
      resolve: (member, _args, ctx) => memberSpaceCountLoader(ctx).load(member),
    }),
    teamCount: t.int({
      description: "Number of teams of the organization the member belongs to.",
      resolve: (member, _args, ctx) => memberTeamCountLoader(ctx).load(member),
    }),
  }),
});

const MemberRoleFilterEnum = publicEnum("MemberRoleFilter", "A role, or guest for members without one.", {
  admin: "Organization admins.",
  create: "Members with the create role.",
  review: "Members with the review role.",
  edit: "Members with the edit role.",
  comment: "Members with the comment role.",
  read: "Members with the read role.",
  guest: "Guests: members without an organization role.",
});

const MemberOrderInput = orderInput("Member", "members", memberListOrder.fields);

const MemberFilterInput = builder.inputType("MemberFilter", {
  description: "Conditions on the members listed, all of which must hold.",
  fields: (t) => ({
    role: t.field({ type: MemberRoleFilterEnum, description: describeInputField(memberFilterSchema, "role") }),
    ...dateBoundFields(t, memberFilterSchema, ["joinedAfter", "joinedBefore"]),
  }),
});

/** The edge of an organization's `members`, shared with `addOrganizationMember`'s payload. */
const MemberEdgeRef = builder.edgeObject({ type: MemberRef, name: "OrganizationMembersConnectionEdge" });

builder.objectFields(OrganizationRef, (t) => ({
  members: t.connection(
    {
      type: MemberRef,
      description: "The organization's members; organization members, not guests (listMembersInOrganizationById).",
      args: {
        role: t.arg({ type: MemberRoleFilterEnum, description: "Only members with this role." }),
        search: t.arg.string({ description: "Only members whose display name or email contains this, ignoring case." }),
        orderBy: t.arg({
          type: [MemberOrderInput],
          description: orderByDescription("newest members first"),
        }),
        filter: t.arg({
          type: MemberFilterInput,
          description: "Conditions on the members listed; its `role` wins over the `role` argument.",
        }),
      },
      resolve: (organization, args, ctx) => listMembers(ctx, organization.id, args, args, args),
    },
    {},
    MemberEdgeRef,
  ),
  member: t.field({
    type: MemberRef,
    description: "One member, by user id; organization members, not guests (getMemberInOrganizationById).",
    args: { userId: t.arg.id({ required: true, description: "The member's user id." }) },
    resolve: (organization, args, ctx) => getMember(ctx, organization.id, args.userId),
  }),
}));

const UpdateMemberInput = builder.inputType("UpdateMemberInput", {
  description: "A member's new role.",
  fields: (t) => ({ role: t.field({ type: RoleEnum, description: describeInputField(updateMemberSchema, "role") }) }),
});

const AddOrganizationMemberInput = builder.inputType("AddOrganizationMemberInput", {
  description: "A person to add to an organization, by email.",
  fields: (t) => ({
    email: t.string({ required: true, description: describeInputField(addUserSchema, "email") }),
    displayName: t.string({ description: describeInputField(addUserSchema, "displayName") }),
    role: t.field({ type: RoleEnum, description: describeInputField(addUserSchema, "role") }),
  }),
});

const PingResultRef = builder.objectRef<{ serviceVisitorClaims: string | null }>("OrganizationPingResult").implement({
  description: "The answer to a ping.",
  fields: (t) => ({
    serviceVisitorClaims: t.exposeString("serviceVisitorClaims", {
      nullable: true,
      description: "Visitor claims of the organization's service (none here: always null).",
    }),
  }),
});

const UpdateOrganizationMemberPayloadRef = payloadType<{ member: typeof MemberRef.$inferType }>(
  "updateOrganizationMember",
  {
    member: { type: MemberRef, description: "The member, changed." },
  },
);

const RemoveOrganizationMemberPayloadRef = payloadType<{
  removedId: string;
  removedUserId: string;
  organizationId: string;
}>("removeOrganizationMember", {
  removedId: { type: "ID", description: "The removed membership's id (for `@deleteEdge` on `members`)." },
  removedUserId: { type: "ID", description: "The removed member's user id." },
  organizationId: { type: "ID", description: "The id of the organization they left (whose `members` held them)." },
});

const UpdateOrganizationMemberLastSeenAtPayloadRef = payloadType<{ ping: typeof PingResultRef.$inferType }>(
  "updateOrganizationMemberLastSeenAt",
  {
    ping: { type: PingResultRef, description: "The answer to the ping." },
  },
);

const SetUserAsSSOMemberForOrganizationPayloadRef = payloadType<{ member: typeof MemberRef.$inferType }>(
  "setUserAsSSOMemberForOrganization",
  {
    member: { type: MemberRef, description: "The member, now an SSO member." },
  },
);

const AddOrganizationMemberPayloadRef = payloadType<{
  member: typeof MemberRef.$inferType;
  memberEdge: typeof MemberEdgeRef.$inferType;
}>("addOrganizationMember", {
  member: { type: MemberRef, description: "The new member." },
  memberEdge: {
    type: MemberEdgeRef,
    description: "The new member's edge in the organization's `members` (default order).",
  },
});

builder.mutationFields((t) => {
  const organizationId = t.arg.id({ required: true, description: "The organization's id." });
  // A membership by its own id, or by the two ids REST paths pass (`membershipKey` in the service decides).
  const memberArgs = {
    memberId: t.arg.id({
      description:
        "The membership's id (`Member.id`). Optional: give it, or both `organizationId` and `userId`; an id beside " +
        "it that names another membership is NOT_FOUND.",
    }),
    organizationId: t.arg.id({ description: "The organization's id; with `userId`, when `memberId` is not given." }),
    userId: t.arg.id({ description: "The member's user id; with `organizationId`, when `memberId` is not given." }),
  };
  return {
    updateOrganizationMember: t.field({
      type: UpdateOrganizationMemberPayloadRef,
      ...describeMutation(
        "Changes a member's role; organization admins. The organization must keep an admin (a CONFLICT error " +
          "otherwise) (updateMemberInOrganizationById).",
        {
          NOT_FOUND: "no such organization or member for the caller",
          FORBIDDEN: "not an organization admin",
          BAD_USER_INPUT: "invalid role, or neither `memberId` nor both `organizationId` and `userId`",
          CONFLICT: "the organization would lose its last admin",
        },
      ),
      args: {
        ...memberArgs,
        input: t.arg({ type: UpdateMemberInput, required: true, description: "The new role." }),
      },
      resolve: async (_root, args, ctx) => ({
        member: await updateMember(ctx, args, args.input),
      }),
    }),
    removeOrganizationMember: t.field({
      type: RemoveOrganizationMemberPayloadRef,
      ...describeMutation(
        "Removes a member: admins remove anyone, members may remove themselves (leave). Removing a non-member " +
          "succeeds. (removeMemberFromOrganizationById).",
        {
          NOT_FOUND: "no such organization for the caller, or a `memberId` naming no membership",
          FORBIDDEN: "not an organization admin, removing someone else",
          BAD_USER_INPUT: "neither `memberId` nor both `organizationId` and `userId`",
          CONFLICT: "the organization would lose its last admin",
        },
      ),
      args: memberArgs,
      resolve: async (_root, args, ctx) => {
        const { organizationId, userId } = await removeMember(ctx, args);
        return { removedId: pairIdOf("Member", organizationId, userId), removedUserId: userId, organizationId };
      },
    }),
    updateOrganizationMemberLastSeenAt: t.field({
      type: UpdateOrganizationMemberLastSeenAtPayloadRef,
      ...describeMutation(
        "Records that the caller is active in the organization now (their `lastSeenAt`); members and guests " +
          "(updateOrganizationMemberLastSeenAt).",
        { NOT_FOUND: "no such organization for the caller" },
      ),
      args: { organizationId },
      resolve: async (_root, args, ctx) => {
        await pingOrganization(ctx, args.organizationId);
        return { ping: { serviceVisitorClaims: null } };
      },
    }),
    setUserAsSSOMemberForOrganization: t.field({
      type: SetUserAsSSOMemberForOrganizationPayloadRef,
      ...describeMutation("Marks a member as an SSO member; organization admins (setUserAsSSOMemberForOrganization).", {
        NOT_FOUND: "no such organization or member for the caller",
        FORBIDDEN: "not an organization admin",
        BAD_USER_INPUT: "neither `memberId` nor both `organizationId` and `userId`",
      }),
      args: memberArgs,
      resolve: async (_root, args, ctx) => ({ member: await setMemberSso(ctx, args) }),
    }),
    addOrganizationMember: t.field({
      type: AddOrganizationMemberPayloadRef,
      ...describeMutation(
        "Adds a person by email, creating their user if needed; someone already a member is a CONFLICT error. " +
          "Organization admins.",
        {
          NOT_FOUND: "no such organization for the caller",
          FORBIDDEN: "not an organization admin",
          BAD_USER_INPUT: "invalid email or role",
          CONFLICT: "already a member",
        },
      ),
      args: {
        organizationId,
        input: t.arg({ type: AddOrganizationMemberInput, required: true, description: "The person and their role." }),
      },
      resolve: async (_root, args, ctx) => {
        const member = await addOrganizationMemberByEmail(ctx, args.organizationId, args.input);
        return { member, memberEdge: edgeOf(memberOrder, member) };
      },
    }),
  };
});
