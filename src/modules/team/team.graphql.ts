import type { Team, TeamMember } from "../../db/generated/client.ts";
import { builder } from "../../graphql/builder.ts";
import { MemberRef } from "../member/member.graphql.ts";
import { getMember } from "../member/member.service.ts";
import { OrganizationRef } from "../organization/organization.graphql.ts";
import { teamSpaceCountLoader } from "../space/space.loaders.ts";
import { teamByIdLoader, teamMemberCountLoader } from "./team.loaders.ts";
import {
  createTeam,
  deleteTeam,
  getTeam,
  listMemberTeams,
  listTeams,
  loadVisibleTeams,
  putTeamMember,
  removeTeamMember,
  teamMemberPermissions,
  teamMembersPage,
  teamPermissions,
  updateTeam,
  updateTeamMembers,
} from "./team.service.ts";

export const TeamRef = builder.objectRef<Team>("Team");

const TeamMemberRoleEnum = builder.enumType("TeamMemberRole", {
  description: "owner: manages the team's members; member: belongs to the team.",
  values: ["owner", "member"] as const,
});

const TeamMemberInfoRef = builder.objectRef<TeamMember>("TeamMember").implement({
  description: "A user's place in a team.",
  fields: (t) => ({ role: t.expose("role", { type: TeamMemberRoleEnum }) }),
});

const TeamPermissionsRef = builder.objectRef<{ view: boolean; admin: boolean }>("TeamPermissions").implement({
  fields: (t) => ({ view: t.exposeBoolean("view"), admin: t.exposeBoolean("admin") }),
});

const OrganizationTeamMemberRef = builder.objectRef<TeamMember>("OrganizationTeamMember").implement({
  description: "A member of a team, with their organization membership.",
  fields: (t) => ({
    organization: t.field({
      type: MemberRef,
      resolve: (row, _args, ctx) => getMember(ctx, row.organizationId, row.userId),
    }),
    team: t.field({ type: TeamMemberInfoRef, resolve: (row) => row }),
    permissions: t.field({
      type: builder.objectRef<{ view: boolean }>("OrganizationTeamMemberPermissions").implement({
        fields: (p) => ({ view: p.exposeBoolean("view") }),
      }),
      resolve: () => teamMemberPermissions(),
    }),
  }),
});

builder.node(TeamRef, {
  description: "A team of members inside an organization.",
  id: { resolve: (team) => team.id },
  loadMany: (ids, ctx) => loadVisibleTeams(ctx, ids),
  fields: (t) => ({
    title: t.exposeString("title"),
    memberCount: t.int({
      description: "Number of members.",
      resolve: (team, _args, ctx) => teamMemberCountLoader(ctx).load(team.id),
    }),
    spaceCount: t.int({
      description: "Spaces the team has a permission on.",
      resolve: (team, _args, ctx) => teamSpaceCountLoader(ctx).load(team.id),
    }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    permissions: t.field({ type: TeamPermissionsRef, resolve: (team, _args, ctx) => teamPermissions(ctx, team) }),
    members: t.connection({
      type: OrganizationTeamMemberRef,
      description: "listTeamMembersInOrganizationById",
      resolve: (team, args, ctx) => teamMembersPage(ctx, team.id, args),
    }),
  }),
});

const MemberTeamRef = builder.objectRef<TeamMember>("MemberTeam").implement({
  description: "A team a member belongs to, with the member's role in it.",
  fields: (t) => ({
    team: t.field({
      type: TeamRef,
      resolve: async (row, _args, ctx) => {
        const team = await teamByIdLoader(ctx).load(row.teamId);
        if (!team) throw new Error(`Team ${row.teamId} is missing`);
        return team;
      },
    }),
    member: t.field({ type: TeamMemberInfoRef, resolve: (row) => row }),
  }),
});

builder.objectFields(OrganizationRef, (t) => ({
  teams: t.connection({
    type: TeamRef,
    description: "listTeamsInOrganizationById",
    args: {
      owner: t.arg.id({ description: "A member id: only the teams this member can manage." }),
      title: t.arg.string({ description: "Case-insensitive title filter." }),
    },
    resolve: (organization, args, ctx) =>
      listTeams(ctx, organization.id, args, { owner: args.owner ? String(args.owner) : null, title: args.title }),
  }),
  team: t.field({
    type: TeamRef,
    description: "getTeamInOrganizationById",
    args: { id: t.arg.id({ required: true }) },
    resolve: (organization, args, ctx) => getTeam(ctx, organization.id, String(args.id)),
  }),
}));

builder.objectFields(MemberRef, (t) => ({
  teams: t.connection({
    type: MemberTeamRef,
    description: "listTeamsForOrganizationMember",
    args: { title: t.arg.string({ description: "Case-insensitive title filter." }) },
    resolve: (member, args, ctx) => listMemberTeams(ctx, member.organizationId, member.userId, args, args),
  }),
}));

const CreateTeamInput = builder.inputType("CreateTeamInput", {
  fields: (t) => ({
    title: t.string({ required: true }),
    members: t.stringList({ description: "Member (user) ids or emails." }),
  }),
});

const UpdateTeamInput = builder.inputType("UpdateTeamInput", { fields: (t) => ({ title: t.string() }) });

const UpdateTeamMembersInput = builder.inputType("UpdateTeamMembersInput", {
  fields: (t) => ({
    add: t.stringList({ description: "User ids or emails to add." }),
    remove: t.stringList({ description: "User ids or emails to remove; wins over add." }),
    memberships: t.field({ type: "JSON", description: "Map of user id to `{ role }`." }),
  }),
});

const TeamMemberInput = builder.inputType("TeamMemberInput", {
  fields: (t) => ({ role: t.field({ type: TeamMemberRoleEnum }) }),
});

builder.mutationFields((t) => {
  const teamArgs = { organizationId: t.arg.id({ required: true }), teamId: t.arg.id({ required: true }) };
  return {
    createOrganizationTeam: t.field({
      type: TeamRef,
      args: { organizationId: t.arg.id({ required: true }), input: t.arg({ type: CreateTeamInput, required: true }) },
      resolve: (_root, args, ctx) => createTeam(ctx, String(args.organizationId), args.input),
    }),
    updateTeamInOrganizationById: t.field({
      type: TeamRef,
      args: { ...teamArgs, input: t.arg({ type: UpdateTeamInput, required: true }) },
      resolve: (_root, args, ctx) => updateTeam(ctx, String(args.organizationId), String(args.teamId), args.input),
    }),
    removeTeamFromOrganizationById: t.boolean({
      description: "Deleting a team that does not exist succeeds.",
      args: teamArgs,
      resolve: async (_root, args, ctx) => {
        await deleteTeam(ctx, String(args.organizationId), String(args.teamId));
        return true;
      },
    }),
    updateMembersInOrganizationTeam: t.boolean({
      args: { ...teamArgs, input: t.arg({ type: UpdateTeamMembersInput, required: true }) },
      resolve: async (_root, args, ctx) => {
        await updateTeamMembers(ctx, String(args.organizationId), String(args.teamId), args.input);
        return true;
      },
    }),
    addMemberToOrganizationTeamById: t.boolean({
      description: "Adds a member to the team, or changes their role.",
      args: { ...teamArgs, userId: t.arg.id({ required: true }), input: t.arg({ type: TeamMemberInput }) },
      resolve: async (_root, args, ctx) => {
        await putTeamMember(
          ctx,
          String(args.organizationId),
          String(args.teamId),
          String(args.userId),
          args.input ?? {},
        );
        return true;
      },
    }),
    deleteMemberFromOrganizationTeamById: t.boolean({
      args: { ...teamArgs, userId: t.arg.id({ required: true }) },
      resolve: async (_root, args, ctx) => {
        await removeTeamMember(ctx, String(args.organizationId), String(args.teamId), String(args.userId));
        return true;
      },
    }),
  };
});
