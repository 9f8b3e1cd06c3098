import {
  type Decision,
  type OrganizationFacts,
  type OrganizationViewer,
  organizationRoleAtLeast,
} from "../../auth/policy.ts";

/* Who may watch an organization's jobs: members with a role (guests see nothing; system jobs are nobody's). */

export function canWatchJobs(viewer: OrganizationViewer, organization: OrganizationFacts): Decision {
  return organizationRoleAtLeast(viewer, organization, "read");
}
