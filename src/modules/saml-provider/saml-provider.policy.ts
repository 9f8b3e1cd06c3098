import { type OrganizationPolicy, organizationRole } from "../../auth/policy.ts";

/* Who may see and change an organization's SAML providers (access.md: SSO is organization admin, reads included). */

export const canManageSso: OrganizationPolicy = organizationRole("admin");
