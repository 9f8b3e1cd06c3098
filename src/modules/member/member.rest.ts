import { listRoute, orderKey, orderRule } from "../../rest/list-route.ts";
import type { RestRoute } from "../../rest/route.ts";

const userFields = /* GraphQL */ `
  fragment UserFields on User { object: __typename id displayName email photoURL urls { location } }
`;

export const memberFields = /* GraphQL */ `
  fragment MemberFields on Member {
    object: __typename id: userId role user { ...UserFields } disabled joinedAt lastSeenAt sso spaces: spaceCount teams: teamCount
  }
  ${userFields}
`;

export const memberRoutes: RestRoute[] = [
  listRoute({
    path: "/orgs/{organizationId}/members",
    operation: "listMembersInOrganizationById",
    variables: "$organizationId: ID!, $role: MemberRoleFilter, $search: String, $orderBy: [MemberOrder!]",
    fields: ["organization(id: $organizationId)", "members(role: $role, search: $search, orderBy: $orderBy)"],
    nodes: "...MemberFields",
    fragments: memberFields,
    // The reference's `sort` (default joinedAt) and `order` (default desc) are one `orderBy` key.
    queryRules: { sort: { oneOf: ["joinedAt", "lastSeenAt"] }, order: orderRule },
    queryVariables: {
      variables: ["orderBy"],
      from: (sent) => {
        const sort = sent("sort");
        const order = sent("order");
        if (sort === undefined && order === undefined) return {};
        return { orderBy: [orderKey(sort === "lastSeenAt" ? "LAST_SEEN_AT" : "JOINED_AT", order ?? "desc")] };
      },
    },
  }),
  {
    method: "GET",
    path: "/orgs/{organizationId}/members/{userId}",
    operation: "getMemberInOrganizationById",
    status: 200,
    result: "organization.member",
    document: `query getMemberInOrganizationById($organizationId: ID!, $userId: ID!) {
      organization(id: $organizationId) { member(userId: $userId) { ...MemberFields } }
    } ${memberFields}`,
  },
  {
    method: "PATCH",
    path: "/orgs/{organizationId}/members/{userId}",
    operation: "updateMemberInOrganizationById",
    status: 200,
    result: "updateOrganizationMember.member",
    document: `mutation updateMemberInOrganizationById($input: UpdateOrganizationMemberInput!) {
      updateOrganizationMember(input: $input) { member { ...MemberFields } }
    } ${memberFields}`,
  },
  {
    method: "DELETE",
    path: "/orgs/{organizationId}/members/{userId}",
    operation: "removeMemberFromOrganizationById",
    status: 204,
    document: `mutation removeMemberFromOrganizationById($organizationId: ID!, $userId: ID!) {
      removeOrganizationMember(input: { organizationId: $organizationId, userId: $userId }) { removedId }
    }`,
  },
  {
    method: "POST",
    path: "/orgs/{organizationId}/ping",
    operation: "updateOrganizationMemberLastSeenAt",
    status: 200,
    result: "updateOrganizationMemberLastSeenAt.ping",
    document: `mutation updateOrganizationMemberLastSeenAt($organizationId: ID!) {
      updateOrganizationMemberLastSeenAt(input: { organizationId: $organizationId }) { ping { serviceVisitorClaims } }
    }`,
  },
  {
    method: "POST",
    path: "/orgs/{organizationId}/members/{userId}/sso",
    operation: "setUserAsSSOMemberForOrganization",
    status: 200,
    result: "setUserAsSSOMemberForOrganization.member",
    document: `mutation setUserAsSSOMemberForOrganization($organizationId: ID!, $userId: ID!) {
      setUserAsSSOMemberForOrganization(input: { organizationId: $organizationId, userId: $userId }) { member { ...MemberFields } }
    } ${memberFields}`,
  },
];
