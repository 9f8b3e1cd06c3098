import type { RestRoute } from "../../rest/route.ts";
import { memberFields } from "../member/member.rest.ts";

export const teamFields = /* GraphQL */ `
  fragment TeamFields on Team {
    object: __typename id title members: memberCount spaces: spaceCount createdAt permissions { admin view }
  }
`;

export const teamRoutes: RestRoute[] = [
  {
    method: "GET",
    path: "/orgs/{organizationId}/teams",
    operation: "listTeamsInOrganizationById",
    status: 200,
    result: "organization.teams",
    document: `query listTeamsInOrganizationById($organizationId: ID!, $limit: Int, $page: String, $owner: ID, $title: String) {
      organization(id: $organizationId) {
        teams(first: $limit, after: $page, owner: $owner, title: $title) {
          totalCount pageInfo { hasNextPage endCursor } nodes { ...TeamFields }
        }
      }
    } ${teamFields}`,
  },
  {
    method: "PUT",
    path: "/orgs/{organizationId}/teams",
    operation: "createOrganizationTeam",
    status: 201,
    result: "createOrganizationTeam",
    document: `mutation createOrganizationTeam($organizationId: ID!, $input: CreateTeamInput!) {
      createOrganizationTeam(organizationId: $organizationId, input: $input) { ...TeamFields }
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
    result: "updateTeamInOrganizationById",
    document: `mutation updateTeamInOrganizationById($organizationId: ID!, $teamId: ID!, $input: UpdateTeamInput!) {
      updateTeamInOrganizationById(organizationId: $organizationId, teamId: $teamId, input: $input) { ...TeamFields }
    } ${teamFields}`,
  },
  {
    method: "DELETE",
    path: "/orgs/{organizationId}/teams/{teamId}",
    operation: "removeTeamFromOrganizationById",
    status: 204,
    document: `mutation removeTeamFromOrganizationById($organizationId: ID!, $teamId: ID!) {
      removeTeamFromOrganizationById(organizationId: $organizationId, teamId: $teamId)
    }`,
  },
  {
    method: "GET",
    path: "/orgs/{organizationId}/teams/{teamId}/members",
    operation: "listTeamMembersInOrganizationById",
    status: 200,
    result: "organization.team.members",
    document: `query listTeamMembersInOrganizationById($organizationId: ID!, $teamId: ID!, $limit: Int, $page: String) {
      organization(id: $organizationId) {
        team(id: $teamId) {
          members(first: $limit, after: $page) {
            totalCount pageInfo { hasNextPage endCursor }
            nodes { organization { ...MemberFields } team { role } permissions { view } }
          }
        }
      }
    } ${memberFields}`,
  },
  {
    method: "PUT",
    path: "/orgs/{organizationId}/teams/{teamId}/members",
    operation: "updateMembersInOrganizationTeam",
    status: 204,
    document: `mutation updateMembersInOrganizationTeam($organizationId: ID!, $teamId: ID!, $input: UpdateTeamMembersInput!) {
      updateMembersInOrganizationTeam(organizationId: $organizationId, teamId: $teamId, input: $input)
    }`,
  },
  {
    method: "PUT",
    path: "/orgs/{organizationId}/teams/{teamId}/members/{userId}",
    operation: "addMemberToOrganizationTeamById",
    status: 204,
    document: `mutation addMemberToOrganizationTeamById($organizationId: ID!, $teamId: ID!, $userId: ID!, $input: TeamMemberInput) {
      addMemberToOrganizationTeamById(organizationId: $organizationId, teamId: $teamId, userId: $userId, input: $input)
    }`,
  },
  {
    method: "DELETE",
    path: "/orgs/{organizationId}/teams/{teamId}/members/{userId}",
    operation: "deleteMemberFromOrganizationTeamById",
    status: 204,
    document: `mutation deleteMemberFromOrganizationTeamById($organizationId: ID!, $teamId: ID!, $userId: ID!) {
      deleteMemberFromOrganizationTeamById(organizationId: $organizationId, teamId: $teamId, userId: $userId)
    }`,
  },
  {
    method: "GET",
    path: "/orgs/{organizationId}/members/{userId}/teams",
    operation: "listTeamsForOrganizationMember",
    status: 200,
    result: "organization.member.teams",
    document: `query listTeamsForOrganizationMember($organizationId: ID!, $userId: ID!, $limit: Int, $page: String, $title: String) {
      organization(id: $organizationId) {
        member(userId: $userId) {
          teams(first: $limit, after: $page, title: $title) {
            totalCount pageInfo { hasNextPage endCursor } nodes { team { ...TeamFields } member { role } }
          }
        }
      }
    } ${teamFields}`,
  },
];
