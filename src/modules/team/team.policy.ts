import {
  type Decision,
  type OrganizationFacts,
  type OrganizationViewer,
  organizationRoleAtLeast,
} from "../../auth/policy.ts";

/* Who may see and manage teams (access.md: list with organization read, create and delete as organization admin). */

/** Listing teams, reading one, and a member's teams. */
export function canListTeams(viewer: OrganizationViewer, organization: OrganizationFacts): Decision {
  return organizationRoleAtLeast(viewer, organization, "read");
}

export function canCreateOrDeleteTeams(viewer: OrganizationViewer, organization: OrganizationFacts): Decision {
  return organizationRoleAtLeast(viewer, organization, "admin");
}
