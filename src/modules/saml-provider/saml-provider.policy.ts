import {
  type Decision,
  type OrganizationFacts,
  type OrganizationViewer,
  organizationRoleAtLeast,
} from "../../auth/policy.ts";

/* Who may see and change an organization's SAML providers (access.md: SSO is organization admin, reads included). */

export function canManageSso(viewer: OrganizationViewer, organization: OrganizationFacts): Decision {
  return organizationRoleAtLeast(viewer, organization, "admin");
}
