import { listRoute } from "../../rest/list-route.ts";
import type { RestRoute } from "../../rest/route.ts";
import { memberFields } from "../member/member.public.ts";

export const teamFields = /* GraphQL */ `
  fragment TeamFields on Team {
    object: __typename id title members: memberCount spaces: spaceCount createdAt permissions__admin: viewerCanAdminister permissions__view: viewerCanView
  }
`;

export const teamRoutes: RestRoute[] = [
  listRoute({
    path: "/orgs/{organizationId}/teams",
    operation: "listTeamsInOrganizationById",
    variables: "$organizationId: ID!, $owner: ID, $title: String",
    fields: ["organization(id: $organizationId)", "teams(owner: $owner, title: $title)"],
    nodes: "...TeamFields",
    fragments: teamFields,
  }),
  {
    method: "PUT",
    path: "/orgs/{organizationId}/teams",
    operation: "createOrganizationTeam",
    status: 201,
    result: "createTeam.team",
    document: `mutation createOrganizationTeam($input: CreateTeamInput!) {
      createTeam(input: $input) { team { ...TeamFields } }
    } ${teamFields}`,
  },
  {
    method: "GET",
    path: "/orgs/{organizationId}/teams/{teamId}",
    operation: "getTeamInOrganizationById",
    status: 200,
    result: "organization.team",
    document: `query getTeamInOrganizationById($organizationId: ID!, $teamId: ID!) {
      organization(id: $organizationId) { team(id: $teamId) { ...TeamFields } }
    } ${teamFields}`,
  },
  {
    method: "PATCH",
    path: "/orgs/{organizationId}/teams/{teamId}",
    operation: "updateTeamInOrganizationById",
    status: 200,
    result: "updateTeam.team",
    document: `mutation updateTeamInOrganizationById($input: UpdateTeamInput!) {
      updateTeam(input: $input) { team { ...TeamFields } }
    } ${teamFields}`,
  },
  {
    method: "DELETE",
    path: "/orgs/{organizationId}/teams/{teamId}",
    operation: "removeTeamFromOrganizationById",
    status: 204,
    document: `mutation removeTeamFromOrganizationById($organizationId: ID!, $teamId: ID!) {
      deleteTeam(input: { organizationId: $organizationId, teamId: $teamId }) { deletedId }
    }`,
  },
  listRoute({
    path: "/orgs/{organizationId}/teams/{teamId}/members",
    operation: "listTeamMembersInOrganizationById",
    variables: "$organizationId: ID!, $teamId: ID!",
    fields: ["organization(id: $organizationId)", "team(id: $teamId)", "members"],
    nodes: "organization { ...MemberFields } team { role } permissions__view: viewerCanView",
    fragments: memberFields,
  }),
  {
    method: "PUT",
    path: "/orgs/{organizationId}/teams/{teamId}/members",
    operation: "updateMembersInOrganizationTeam",
    status: 204,
    document: `mutation updateMembersInOrganizationTeam($input: UpdateTeamMembersInput!) {
      updateTeamMembers(input: $input) { team { id } }
    }`,
  },
  {
    method: "PUT",
    path: "/orgs/{organizationId}/teams/{teamId}/members/{userId}",
    operation: "addMemberToOrganizationTeamById",
    status: 204,
    document: `mutation addMemberToOrganizationTeamById($input: AddTeamMemberInput!) {
      addTeamMember(input: $input) { team { id } }
    }`,
  },
  {
    method: "DELETE",
    path: "/orgs/{organizationId}/teams/{teamId}/members/{userId}",
    operation: "deleteMemberFromOrganizationTeamById",
    status: 204,
    document: `mutation deleteMemberFromOrganizationTeamById($organizationId: ID!, $teamId: ID!, $userId: ID!) {
      removeTeamMember(input: { organizationId: $organizationId, teamId: $teamId, userId: $userId }) { removedTeamMemberId }
    }`,
  },
  listRoute({
    path: "/orgs/{organizationId}/members/{userId}/teams",
    operation: "listTeamsForOrganizationMember",
    variables: "$organizationId: ID!, $userId: ID!, $title: String",
    fields: ["organization(id: $organizationId)", "member(userId: $userId)", "teams(title: $title)"],
    nodes: "team { ...TeamFields } member { role }",
    fragments: teamFields,
  }),
];
