import { type OrganizationPolicy, organizationRole } from "../../auth/policy.ts";

/* Who may see and manage translations (access.md: create translations with the organization create role). */

export const canReadTranslations: OrganizationPolicy = organizationRole("read");

/** Creating, updating, deleting and re-running a translation. */
export const canManageTranslations: OrganizationPolicy = organizationRole("create");
