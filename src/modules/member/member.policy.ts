import {
  type Decision,
  type OrganizationFacts,
  type OrganizationViewer,
  organizationMember,
  organizationRoleAtLeast,
} from "../../auth/policy.ts";

/* Who may see and manage an organization's members (access.md: list with read, manage as organization admin). */

export function canListMembers(viewer: OrganizationViewer, organization: OrganizationFacts): Decision {
  return organizationRoleAtLeast(viewer, organization, "read");
}

/** Changing a member's role or SSO flag. */
export function canManageMembers(viewer: OrganizationViewer, organization: OrganizationFacts): Decision {
  return organizationRoleAtLeast(viewer, organization, "admin");
}

/** Admins remove anyone; a member may remove themselves (leave), whatever their role. */
export function canRemoveMember(
  viewer: OrganizationViewer,
  organization: OrganizationFacts,
  removal: { leaving: boolean },
): Decision {
  return removal.leaving
    ? organizationMember(viewer, organization)
    : organizationRoleAtLeast(viewer, organization, "admin");
}
