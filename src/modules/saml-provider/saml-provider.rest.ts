import { listRoute } from "../../rest/list-route.ts";
import type { RestRoute } from "../../rest/route.ts";
import { teamFields } from "../team/team.public.ts";

const providerFields = /* GraphQL */ `
  fragment SAMLProviderFields on SAMLProvider {
    object: __typename id label ssoURL entityID certificate defaultTeam { ...TeamFields } defaultRole createdAt status
    service { acsURL startURL entityID } urls { location }
  }
  ${teamFields}
`;

const providerArgs = "$organizationId: ID!, $samlProviderId: ID!";

export const samlProviderRoutes: RestRoute[] = [
  listRoute({
    path: "/orgs/{organizationId}/saml",
    operation: "listSAMLProvidersInOrganizationById",
    variables: "$organizationId: ID!",
    fields: ["organization(id: $organizationId)", "samlProviders"],
    nodes: "...SAMLProviderFields",
    fragments: providerFields,
  }),
  {
    method: "POST",
    path: "/orgs/{organizationId}/saml",
    operation: "createOrganizationSAMLProvider",
    status: 201,
    result: "createOrganizationSAMLProvider.samlProvider",
    document: `mutation createOrganizationSAMLProvider($input: CreateOrganizationSAMLProviderInput!) {
      createOrganizationSAMLProvider(input: $input) { samlProvider { ...SAMLProviderFields } }
    } ${providerFields}`,
  },
  {
    method: "GET",
    path: "/orgs/{organizationId}/saml/{samlProviderId}",
    operation: "getOrganizationSAMLProviderById",
    status: 200,
    result: "organization.samlProvider",
    document: `query getOrganizationSAMLProviderById(${providerArgs}) {
      organization(id: $organizationId) { samlProvider(id: $samlProviderId) { ...SAMLProviderFields } }
    } ${providerFields}`,
  },
  {
    method: "PATCH",
    path: "/orgs/{organizationId}/saml/{samlProviderId}",
    operation: "updateOrganizationSAMLProvider",
    status: 200,
    result: "updateOrganizationSAMLProvider.samlProvider",
    document: `mutation updateOrganizationSAMLProvider($input: UpdateOrganizationSAMLProviderInput!) {
      updateOrganizationSAMLProvider(input: $input) {
        samlProvider {
          ...SAMLProviderFields
        }
      }
    } ${providerFields}`,
  },
  {
    method: "DELETE",
    path: "/orgs/{organizationId}/saml/{samlProviderId}",
    operation: "deleteOrganizationSAMLProvider",
    status: 204,
    document: `mutation deleteOrganizationSAMLProvider(${providerArgs}) {
      deleteOrganizationSAMLProvider(input: { organizationId: $organizationId, samlProviderId: $samlProviderId }) { deletedId }
    }`,
  },
  {
    method: "GET",
    path: "/orgs/{organizationId}/sso",
    operation: "listSSOProviderLoginsInOrganization",
    status: 200,
    result: "ssoProviderLogins",
    document: `query listSSOProviderLoginsInOrganization($organizationId: ID!) {
      ssoProviderLogins(organizationId: $organizationId) { items { id: providerId label startURL } }
    }`,
  },
];
