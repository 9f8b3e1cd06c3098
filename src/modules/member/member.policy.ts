import {
  type Decision,
  type OrganizationFacts,
  type OrganizationPolicy,
  type OrganizationViewer,
  organizationMember,
  organizationRole,
  organizationRoleAtLeast,
} from "../../auth/policy.ts";

/* Who may see and manage an organization's members (access.md: list with read, manage as organization admin). */

export const canListMembers: OrganizationPolicy = organizationRole("read");

/** Changing a member's role or SSO flag. */
export const canManageMembers: OrganizationPolicy = organizationRole("admin");

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
