import {
  type Decision,
  type OrganizationFacts,
  type OrganizationViewer,
  organizationRoleAtLeast,
} from "../../auth/policy.ts";

/* Users are global; what an organization's admin may do with them: add one to the organization by email. */

export function canAddMembersByEmail(viewer: OrganizationViewer, organization: OrganizationFacts): Decision {
  return organizationRoleAtLeast(viewer, organization, "admin");
}
