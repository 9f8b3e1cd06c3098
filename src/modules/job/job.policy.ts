import { type OrganizationPolicy, organizationRole } from "../../auth/policy.ts";

/* Who may watch an organization's jobs: members with a role (guests see nothing; system jobs are nobody's). */

export const canWatchJobs: OrganizationPolicy = organizationRole("read");
