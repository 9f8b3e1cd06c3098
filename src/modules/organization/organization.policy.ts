import {
  type Decision,
  type OrganizationFacts,
  type OrganizationViewer,
  organizationRoleAtLeast,
} from "../../auth/policy.ts";

/* Who may read and change an organization's own settings (access.md: organization admin; reads with read). */

/** Settings, merge rules, default content, and agent instructions. */
export function canUpdateOrganization(viewer: OrganizationViewer, organization: OrganizationFacts): Decision {
  return organizationRoleAtLeast(viewer, organization, "admin");
}

export function canReadAgentInstructions(viewer: OrganizationViewer, organization: OrganizationFacts): Decision {
  return organizationRoleAtLeast(viewer, organization, "read");
}

/** Invite links hand out roles, so they are an organization admin's, reads included. */
export function canManageInvites(viewer: OrganizationViewer, organization: OrganizationFacts): Decision {
  return organizationRoleAtLeast(viewer, organization, "admin");
}
