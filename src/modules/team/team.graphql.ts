import type { Team, TeamMember } from "../../db/generated/client.ts";
import { builder } from "../../graphql/builder.ts";
import { publicEnum } from "../../graphql/enums.ts";
import { describeInputField } from "../../graphql/input-description.ts";
import { createdRangeKeys, dateBoundFields, orderByDescription, orderInput } from "../../graphql/list-order.ts";
import { idColumn, loadBranded } from "../../graphql/node-ids.ts";
import { describeMutation, payloadType } from "../../graphql/payload.ts";
import { viewerCanFields } from "../../graphql/viewer-can.ts";
import { edgeOf } from "../../paging/pagination.ts";
import { getMember, MemberRef } from "../member/member.public.ts";
import { addOrganizationParent, OrganizationRef } from "../organization/organization.public.ts";
import { teamSpaceCountLoader } from "../space/space.public.ts";
import { teamByIdLoader, teamMemberCountLoader, teamMemberOrder } from "./team.loaders.ts";
import {
  createTeam,
  createTeamSchema,
  deleteTeam,
  getTeam,
  listMemberTeams,
  listTeams,
  loadVisibleMemberTeams,
  loadVisibleTeamMembers,
  loadVisibleTeams,
  memberTeamIdOf,
  putTeamMember,
  putTeamMemberSchema,
  removeTeamMember,
  teamFilterSchema,
  teamListOrder,
  teamMemberIdOf,
  teamMemberPermissions,
  teamMembersPage,
  teamOrder,
  teamPermissions,
  updateTeam,
  updateTeamMembers,
  updateTeamMembersSchema,
  updateTeamSchema,
} from "./team.service.ts";

export const TeamRef = builder.objectRef<Team>("Team");

const TeamMemberRoleEnum = publicEnum("TeamMemberRole", "A member's role in a team.", {
  owner: "Manages the team: its title and members.",
  member: "Belongs to the team, and gets the team's grants on spaces.",
});

const TeamMemberInfoRef = builder.objectRef<TeamMember>("TeamMember").implement({
  description: "A user's place in a team.",
  fields: (t) => ({
    role: t.expose("role", { type: TeamMemberRoleEnum, description: "Their role in the team." }),
  }),
});

const OrganizationTeamMemberRef = builder.objectRef<TeamMember>("OrganizationTeamMember");

builder.node(OrganizationTeamMemberRef, {
  description:
    "A member of a team, with their organization membership: one per team and person, each with its own id (what " +
    "`removeTeamMember` answers as `removedTeamMemberId`).",
  id: { resolve: (row) => teamMemberIdOf(row.teamId, row.userId) },
  ...loadBranded(OrganizationTeamMemberRef, (ids, ctx) => loadVisibleTeamMembers(ctx, ids)),
  fields: (t) => ({
    organization: t.field({
      type: MemberRef,
      description: "Their membership of the organization.",
      resolve: (row, _args, ctx) => getMember(ctx, row.organizationId, row.userId),
    }),
    team: t.field({ type: TeamMemberInfoRef, description: "Their place in the team.", resolve: (row) => row }),
    ...viewerCanFields(t, () => teamMemberPermissions(), {
      viewerCanView: ["view", "Whether the viewer may see them (always true: their organization's members do)."],
    }),
  }),
});

/** The edge of a team's `members`, shared with `addTeamMember`'s payload. */
const TeamMemberEdgeRef = builder.edgeObject({ type: OrganizationTeamMemberRef, name: "TeamMembersConnectionEdge" });

builder.node(TeamRef, {
  description: "A team of members inside an organization.",
  id: idColumn,
  loadMany: (ids, ctx) => loadVisibleTeams(ctx, ids),
  fields: (t) => ({
    title: t.exposeString("title", { description: "The team's title (1..64 characters)." }),
    memberCount: t.int({
      description: "Number of members.",
      resolve: (team, _args, ctx) => teamMemberCountLoader(ctx).load(team.id),
    }),
    spaceCount: t.int({
      description: "Number of spaces the team has a permission on.",
      resolve: (team, _args, ctx) => teamSpaceCountLoader(ctx).load(team.id),
    }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When it was created (ISO 8601)." }),
    ...viewerCanFields(t, (team, ctx) => teamPermissions(ctx, team), {
      viewerCanView: ["view", "Whether the viewer may see the team (a member of its organization)."],
      viewerCanAdminister: [
        "admin",
        "Whether the viewer may manage its title and members (organization admin or team owner).",
      ],
    }),
    members: t.connection(
      {
        type: OrganizationTeamMemberRef,
        description: "The team's members; organization members (listTeamMembersInOrganizationById).",
        resolve: (team, args, ctx) => teamMembersPage(ctx, team.id, args),
      },
      {},
      TeamMemberEdgeRef,
    ),
  }),
});

const MemberTeamRef = builder.objectRef<TeamMember>("MemberTeam");

builder.node(MemberTeamRef, {
  description:
    "A team a member belongs to, with the member's role in it: one per person and team, with an id of its own (what " +
    "`removeTeamMember` answers as `removedMemberTeamId`).",
  id: { resolve: (row) => memberTeamIdOf(row.userId, row.teamId) },
  ...loadBranded(MemberTeamRef, (ids, ctx) => loadVisibleMemberTeams(ctx, ids)),
  fields: (t) => ({
    team: t.field({
      type: TeamRef,
      description: "The team.",
      resolve: async (row, _args, ctx) => {
        const team = await teamByIdLoader(ctx).load(row.teamId);
        if (!team) throw new Error(`Team ${row.teamId} is missing`);
        return team;
      },
    }),
    member: t.field({ type: TeamMemberInfoRef, description: "The member's place in it.", resolve: (row) => row }),
  }),
});

const TeamOrderInput = orderInput("Team", "teams", teamListOrder.fields);

const TeamFilterInput = builder.inputType("TeamFilter", {
  description: "Conditions on the teams listed, all of which must hold.",
  fields: (t) => ({
    titleContains: t.string({ description: describeInputField(teamFilterSchema, "titleContains") }),
    ...dateBoundFields(t, teamFilterSchema, createdRangeKeys),
  }),
});

/** The edge of an organization's `teams`, shared with `createTeam`'s payload. */
const TeamEdgeRef = builder.edgeObject({ type: TeamRef, name: "OrganizationTeamsConnectionEdge" });

builder.objectFields(OrganizationRef, (t) => ({
  teams: t.connection(
    {
      type: TeamRef,
      description: "The organization's teams, oldest first; organization members (listTeamsInOrganizationById).",
      args: {
        owner: t.arg.id({ description: "A member's user id: only the teams this member can manage." }),
        title: t.arg.string({ description: "Only teams whose title contains this, ignoring case." }),
        orderBy: t.arg({ type: [TeamOrderInput], description: orderByDescription("oldest first") }),
        filter: t.arg({ type: TeamFilterInput, description: "Conditions on the teams listed." }),
      },
      resolve: (organization, args, ctx) =>
        listTeams(ctx, organization.id, args, { owner: args.owner ?? null, title: args.title }, args),
    },
    {},
    TeamEdgeRef,
  ),
  team: t.field({
    type: TeamRef,
    description: "One team of the organization; organization members (getTeamInOrganizationById).",
    args: { id: t.arg.id({ required: true, description: "The team's id." }) },
    resolve: (organization, args, ctx) => getTeam(ctx, organization.id, args.id),
  }),
}));

builder.objectFields(MemberRef, (t) => ({
  teams: t.connection({
    type: MemberTeamRef,
    description:
      "The teams the member belongs to, by the date they joined each; organization members " +
      "(listTeamsForOrganizationMember).",
    args: { title: t.arg.string({ description: "Only teams whose title contains this, ignoring case." }) },
    resolve: (member, args, ctx) => listMemberTeams(ctx, member.organizationId, member.userId, args, args),
  }),
}));

const CreateTeamInput = builder.inputType("CreateTeamInput", {
  description: "A new team.",
  fields: (t) => ({
    title: t.string({ required: true, description: describeInputField(createTeamSchema, "title") }),
    members: t.stringList({ description: describeInputField(createTeamSchema, "members") }),
  }),
});

const UpdateTeamInput = builder.inputType("UpdateTeamInput", {
  description: "Changes to a team.",
  fields: (t) => ({ title: t.string({ description: describeInputField(updateTeamSchema, "title") }) }),
});

const UpdateTeamMembersInput = builder.inputType("UpdateTeamMembersInput", {
  description: "Members to add, remove and re-role, in one change.",
  fields: (t) => ({
    add: t.stringList({ description: describeInputField(updateTeamMembersSchema, "add") }),
    remove: t.stringList({ description: describeInputField(updateTeamMembersSchema, "remove") }),
    memberships: t.field({ type: "JSON", description: describeInputField(updateTeamMembersSchema, "memberships") }),
  }),
});

const TeamMemberInput = builder.inputType("TeamMemberInput", {
  description: "A team member's role.",
  fields: (t) => ({
    role: t.field({ type: TeamMemberRoleEnum, description: describeInputField(putTeamMemberSchema, "role") }),
  }),
});

const CreateTeamPayloadRef = payloadType<{
  team: typeof TeamRef.$inferType;
  teamEdge: typeof TeamEdgeRef.$inferType;
}>("createTeam", {
  team: { type: TeamRef, description: "The new team." },
  teamEdge: { type: TeamEdgeRef, description: "The new team's edge in the organization's `teams`." },
});

const UpdateTeamPayloadRef = payloadType<{ team: typeof TeamRef.$inferType }>("updateTeam", {
  team: { type: TeamRef, description: "The team, changed." },
});

const DeleteTeamPayloadRef = payloadType<{ deletedId: string }>("deleteTeam", {
  deletedId: { type: "ID", description: "The deleted team's id (for Relay's `@deleteRecord`)." },
});

const UpdateTeamMembersPayloadRef = payloadType<{
  team: typeof TeamRef.$inferType;
  removedTeamMemberIds: string[];
}>("updateTeamMembers", {
  team: { type: TeamRef, description: "The team whose members changed." },
  removedTeamMemberIds: {
    type: ["ID"],
    description:
      "The ids of the team members `remove` named, whether they were in the team or not (for `@deleteEdge` on " +
      "the team's `members`).",
  },
});

const AddTeamMemberPayloadRef = payloadType<{
  team: typeof TeamRef.$inferType;
  teamMember: typeof OrganizationTeamMemberRef.$inferType;
  teamMemberEdge: typeof TeamMemberEdgeRef.$inferType;
}>("addTeamMember", {
  team: { type: TeamRef, description: "The team." },
  teamMember: { type: OrganizationTeamMemberRef, description: "The team member, added or changed." },
  teamMemberEdge: { type: TeamMemberEdgeRef, description: "The member's edge in the team's `members`." },
});

const RemoveTeamMemberPayloadRef = payloadType<{
  removedTeamMemberId: string;
  removedMemberTeamId: string;
  removedUserId: string;
  team: typeof TeamRef.$inferType;
}>("removeTeamMember", {
  removedTeamMemberId: {
    type: "ID",
    description: "The removed team member's id (for `@deleteEdge` on the team's `members`).",
  },
  removedMemberTeamId: {
    type: "ID",
    description: "The removed membership's id among the member's teams (for `@deleteEdge` on the member's `teams`).",
  },
  removedUserId: { type: "ID", description: "The removed member's user id." },
  team: { type: TeamRef, description: "The team they left." },
});

builder.mutationFields((t) => {
  const organizationId = t.arg.id({ required: true, description: "The organization's id." });
  const userId = t.arg.id({ required: true, description: "The member's user id." });
  const teamByIdArgs = {
    organizationId: t.arg.id({
      description: "The organization's id. Optional: the team names it; when given and not the team's, NOT_FOUND.",
    }),
    teamId: t.arg.id({ required: true, description: "The team's id." }),
  };
  return {
    createTeam: t.field({
      type: CreateTeamPayloadRef,
      ...describeMutation("Creates a team; organization admins (createOrganizationTeam).", {
        NOT_FOUND: "no such organization for the caller",
        FORBIDDEN: "not an organization admin",
        BAD_USER_INPUT: "invalid input",
      }),
      args: { organizationId, input: t.arg({ type: CreateTeamInput, required: true, description: "The new team." }) },
      resolve: async (_root, args, ctx) => {
        const team = await createTeam(ctx, args.organizationId, args.input);
        return { team, teamEdge: edgeOf(teamOrder, team) };
      },
    }),
    updateTeam: t.field({
      type: UpdateTeamPayloadRef,
      ...describeMutation("Renames a team; organization admins and the team's owners (updateTeamInOrganizationById).", {
        NOT_FOUND: "no such organization or team for the caller",
        FORBIDDEN: "neither an organization admin nor a team owner",
        BAD_USER_INPUT: "invalid input",
      }),
      args: { ...teamByIdArgs, input: t.arg({ type: UpdateTeamInput, required: true, description: "The changes." }) },
      resolve: async (_root, args, ctx) => ({
        team: await updateTeam(ctx, args.organizationId, args.teamId, args.input),
      }),
    }),
    deleteTeam: t.field({
      type: DeleteTeamPayloadRef,
      ...describeMutation(
        "Deletes a team and the grants it gave; organization admins. Deleting a team that does not exist " +
          "succeeds when `organizationId` is given. (removeTeamFromOrganizationById).",
        {
          NOT_FOUND: "no such organization for the caller; without `organizationId`, no such team for the caller",
          FORBIDDEN: "not an organization admin",
        },
      ),
      args: teamByIdArgs,
      resolve: async (_root, args, ctx) => {
        await deleteTeam(ctx, args.organizationId, args.teamId);
        return { deletedId: args.teamId };
      },
    }),
    updateTeamMembers: t.field({
      type: UpdateTeamMembersPayloadRef,
      ...describeMutation(
        "Adds, removes and re-roles team members in one change; organization admins and the team's owners " +
          "(updateMembersInOrganizationTeam).",
        {
          NOT_FOUND: "no such organization or team for the caller",
          FORBIDDEN: "neither an organization admin nor a team owner",
          BAD_USER_INPUT: "invalid input, or a user who is not an organization member",
        },
      ),
      args: {
        ...teamByIdArgs,
        input: t.arg({ type: UpdateTeamMembersInput, required: true, description: "The changes." }),
      },
      resolve: async (_root, args, ctx) => {
        const { team, removedUserIds } = await updateTeamMembers(ctx, args.organizationId, args.teamId, args.input);
        return { team, removedTeamMemberIds: removedUserIds.map((userId) => teamMemberIdOf(team.id, userId)) };
      },
    }),
    addTeamMember: t.field({
      type: AddTeamMemberPayloadRef,
      ...describeMutation(
        "Adds an organization member to the team, or changes their role; organization admins and the team's " +
          "owners (addMemberToOrganizationTeamById).",
        {
          NOT_FOUND: "no such organization or team for the caller",
          FORBIDDEN: "neither an organization admin nor a team owner",
          BAD_USER_INPUT: "invalid role, or a user who is not an organization member",
        },
      ),
      args: {
        ...teamByIdArgs,
        userId,
        input: t.arg({ type: TeamMemberInput, description: "Their role; omitted: member (or unchanged)." }),
      },
      resolve: async (_root, args, ctx) => {
        const teamMember = await putTeamMember(ctx, args.organizationId, args.teamId, args.userId, args.input ?? {});
        return {
          team: await getTeam(ctx, teamMember.organizationId, args.teamId),
          teamMember,
          teamMemberEdge: edgeOf(teamMemberOrder, teamMember),
        };
      },
    }),
    removeTeamMember: t.field({
      type: RemoveTeamMemberPayloadRef,
      ...describeMutation(
        "Removes a member from the team; someone not in it succeeds. Organization admins and the team's owners " +
          "(deleteMemberFromOrganizationTeamById).",
        {
          NOT_FOUND: "no such organization or team for the caller",
          FORBIDDEN: "neither an organization admin nor a team owner",
        },
      ),
      args: { ...teamByIdArgs, userId },
      resolve: async (_root, args, ctx) => {
        const team = await removeTeamMember(ctx, args.organizationId, args.teamId, args.userId);
        return {
          removedTeamMemberId: teamMemberIdOf(team.id, args.userId),
          removedMemberTeamId: memberTeamIdOf(args.userId, team.id),
          removedUserId: args.userId,
          team,
        };
      },
    }),
  };
});

addOrganizationParent(TeamRef);
