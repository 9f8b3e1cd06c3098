import { type OrganizationPolicy, organizationRole } from "../../auth/policy.ts";

/* Users are global; what an organization's admin may do with them: add one to the organization by email. */

export const canAddMembersByEmail: OrganizationPolicy = organizationRole("admin");
