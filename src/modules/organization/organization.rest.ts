import type { RestRoute } from "../../rest/route.ts";

export const organizationFields = /* GraphQL */ `
  fragment OrganizationFields on Organization {
    object id title createdAt emailDomains hostname type useCase communityType defaultRole
    defaultContent { type site }
    sso ai inviteLinks plan mergeRules
    trial { status count }
    urls { location app logo }
    permissions {
      view access admin ownTeam createContent createOpenAPISpec viewBilling listMembers listTeams
      listIntegrations listInstallations installIntegration
    }
  }
`;

const agentInstructionsFields = /* GraphQL */ `
  fragment AgentInstructionsFields on AgentInstructions { object instructions updatedAt updatedBy urls { location } }
`;

export const organizationRoutes: RestRoute[] = [
  {
    method: "GET",
    path: "/orgs",
    operation: "listOrganizationsForAuthenticatedUser",
    status: 200,
    result: "organizations",
    document: `query listOrganizationsForAuthenticatedUser($limit: Int, $page: String) {
      organizations(first: $limit, after: $page) {
        totalCount pageInfo { hasNextPage endCursor } nodes { ...OrganizationFields }
      }
    } ${organizationFields}`,
  },
  {
    method: "POST",
    path: "/orgs",
    operation: "createOrganization",
    status: 201,
    result: "createOrganization",
    document: `mutation createOrganization($input: CreateOrganizationInput!) {
      createOrganization(input: $input) { ...OrganizationFields }
    } ${organizationFields}`,
  },
  {
    method: "GET",
    path: "/orgs/{organizationId}",
    operation: "getOrganizationById",
    status: 200,
    result: "organization",
    document: `query getOrganizationById($organizationId: ID!) {
      organization(id: $organizationId) { ...OrganizationFields }
    } ${organizationFields}`,
  },
  {
    method: "PATCH",
    path: "/orgs/{organizationId}",
    operation: "updateOrganizationById",
    status: 200,
    result: "updateOrganizationById",
    document: `mutation updateOrganizationById($organizationId: ID!, $input: UpdateOrganizationInput!) {
      updateOrganizationById(organizationId: $organizationId, input: $input) { ...OrganizationFields }
    } ${organizationFields}`,
  },
  {
    method: "POST",
    path: "/orgs/{organizationId}/join",
    operation: "joinOrganization",
    status: 204,
    document: `mutation joinOrganization($organizationId: ID!) { joinOrganization(organizationId: $organizationId) }`,
  },
  {
    method: "GET",
    path: "/orgs/{organizationId}/agent-instructions",
    operation: "getOrganizationAgentInstructions",
    status: 200,
    result: "organization.agentInstructions",
    document: `query getOrganizationAgentInstructions($organizationId: ID!) {
      organization(id: $organizationId) { agentInstructions { ...AgentInstructionsFields } }
    } ${agentInstructionsFields}`,
  },
  {
    method: "PUT",
    path: "/orgs/{organizationId}/agent-instructions",
    operation: "updateOrganizationAgentInstructions",
    status: 200,
    result: "updateOrganizationAgentInstructions",
    document: `mutation updateOrganizationAgentInstructions($organizationId: ID!, $input: UpdateAgentInstructionsInput!) {
      updateOrganizationAgentInstructions(organizationId: $organizationId, input: $input) { ...AgentInstructionsFields }
    } ${agentInstructionsFields}`,
  },
  {
    method: "GET",
    path: "/email-domains/{emailDomain}/orgs",
    operation: "getOrganizationsForEmailDomain",
    status: 200,
    result: "",
    document: `query getOrganizationsForEmailDomain($emailDomain: String!) {
      organizations: organizationsForEmailDomain(emailDomain: $emailDomain) { ...OrganizationFields }
    } ${organizationFields}`,
  },
];
