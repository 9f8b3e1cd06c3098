import {
  type Decision,
  type OrganizationFacts,
  type OrganizationViewer,
  organizationRoleAtLeast,
} from "../../../src/auth/policy.ts";

/* Who may read the organization's notice: its members with a role. */

export function canReadNotice(viewer: OrganizationViewer, organization: OrganizationFacts): Decision {
  return organizationRoleAtLeast(viewer, organization, "read");
}
