import { listRoute } from "../../rest/list-route.ts";
import type { RestRoute } from "../../rest/route.ts";

export const organizationFields = /* GraphQL */ `
  fragment OrganizationFields on Organization {
    object: __typename id title createdAt emailDomains hostname type useCase communityType defaultRole
    defaultContent { type site: siteId }
    sso ai inviteLinks plan mergeRules
    trial { status count }
    urls { location app logo }
    permissions__view: viewerCanView permissions__access: viewerCanAccess permissions__admin: viewerCanAdminister permissions__ownTeam: viewerOwnsTeam permissions__createContent: viewerCanCreateContent permissions__createOpenAPISpec: viewerCanCreateOpenAPISpec permissions__viewBilling: viewerCanViewBilling permissions__listMembers: viewerCanListMembers permissions__listTeams: viewerCanListTeams permissions__listIntegrations: viewerCanListIntegrations permissions__listInstallations: viewerCanListInstallations permissions__installIntegration: viewerCanInstallIntegration
  }
`;

const agentInstructionsFields = /* GraphQL */ `
  fragment AgentInstructionsFields on AgentInstructions { object: __typename instructions updatedAt updatedBy urls { location } }
`;

const linkInviteFields = /* GraphQL */ `
  fragment LinkInviteFields on LinkInvite { object: __typename id role redundant }
`;

export const organizationRoutes: RestRoute[] = [
  listRoute({
    path: "/orgs",
    operation: "listOrganizationsForAuthenticatedUser",
    fields: ["organizations"],
    nodes: "...OrganizationFields",
    fragments: organizationFields,
  }),
  {
    method: "POST",
    path: "/orgs",
    operation: "createOrganization",
    status: 201,
    result: "createOrganization.organization",
    document: `mutation createOrganization($input: CreateOrganizationInput!) {
      createOrganization(input: $input) { organization { ...OrganizationFields } }
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
    result: "updateOrganization.organization",
    document: `mutation updateOrganizationById($input: UpdateOrganizationInput!) {
      updateOrganization(input: $input) { organization { ...OrganizationFields } }
    } ${organizationFields}`,
  },
  {
    method: "POST",
    path: "/orgs/{organizationId}/join",
    operation: "joinOrganization",
    status: 204,
    document: `mutation joinOrganization($organizationId: ID!) { joinOrganization(input: { organizationId: $organizationId }) { organization { id } } }`,
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
    result: "updateOrganizationAgentInstructions.agentInstructions",
    document: `mutation updateOrganizationAgentInstructions($input: UpdateOrganizationAgentInstructionsInput!) {
      updateOrganizationAgentInstructions(input: $input) { agentInstructions { ...AgentInstructionsFields } }
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
  listRoute({
    path: "/orgs/{organizationId}/link-invites",
    operation: "listOrganizationInviteLinks",
    variables: "$organizationId: ID!",
    fields: ["organization(id: $organizationId)", "linkInvites"],
    nodes: "...LinkInviteFields",
    fragments: linkInviteFields,
  }),
  {
    method: "POST",
    path: "/orgs/{organizationId}/link-invites",
    operation: "createOrganizationInvite",
    status: 201,
    result: "createOrganizationInvite.linkInvite",
    document: `mutation createOrganizationInvite($input: CreateOrganizationInviteInput!) {
      createOrganizationInvite(input: $input) { linkInvite { ...LinkInviteFields } }
    } ${linkInviteFields}`,
  },
  {
    method: "GET",
    path: "/orgs/{organizationId}/link-invites/{inviteId}",
    operation: "getOrganizationInviteLink",
    status: 200,
    result: "organization.linkInvite",
    document: `query getOrganizationInviteLink($organizationId: ID!, $inviteId: ID!) {
      organization(id: $organizationId) { linkInvite(id: $inviteId) { ...LinkInviteFields } }
    } ${linkInviteFields}`,
  },
  {
    method: "PATCH",
    path: "/orgs/{organizationId}/link-invites/{inviteId}",
    operation: "updateOrganizationInviteById",
    status: 200,
    result: "updateOrganizationInvite.linkInvite",
    document: `mutation updateOrganizationInviteById($input: UpdateOrganizationInviteInput!) {
      updateOrganizationInvite(input: $input) { linkInvite { ...LinkInviteFields } }
    } ${linkInviteFields}`,
  },
  {
    method: "DELETE",
    path: "/orgs/{organizationId}/link-invites/{inviteId}",
    operation: "deleteOrganizationInviteById",
    status: 204,
    document: `mutation deleteOrganizationInviteById($organizationId: ID!, $inviteId: ID!) {
      deleteOrganizationInvite(input: { organizationId: $organizationId, inviteId: $inviteId }) { deletedId }
    }`,
  },
  {
    method: "POST",
    path: "/orgs/{organizationId}/invites/{inviteId}",
    operation: "joinOrganizationWithInvite",
    status: 200,
    result: "joinOrganizationWithInvite",
    document: `mutation joinOrganizationWithInvite($organizationId: ID!, $inviteId: ID!) {
      joinOrganizationWithInvite(input: { organizationId: $organizationId, inviteId: $inviteId }) { joined }
    }`,
  },
];
