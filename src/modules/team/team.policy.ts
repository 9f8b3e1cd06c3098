import { type OrganizationPolicy, organizationRole } from "../../auth/policy.ts";

/* Who may see and manage teams (access.md: list with organization read, create and delete as organization admin). */

/** Listing teams, reading one, and a member's teams. */
export const canListTeams: OrganizationPolicy = organizationRole("read");

export const canCreateOrDeleteTeams: OrganizationPolicy = organizationRole("admin");
