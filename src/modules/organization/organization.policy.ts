import { type OrganizationPolicy, organizationRole } from "../../auth/policy.ts";

/* Who may read and change an organization's own settings (access.md: organization admin; reads with read). */

/** Settings, merge rules, default content, and agent instructions. */
export const canUpdateOrganization: OrganizationPolicy = organizationRole("admin");

export const canReadAgentInstructions: OrganizationPolicy = organizationRole("read");

/** Invite links hand out roles, so they are an organization admin's, reads included. */
export const canManageInvites: OrganizationPolicy = organizationRole("admin");
