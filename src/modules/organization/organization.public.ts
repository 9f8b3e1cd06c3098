/** The organization module's door: all that other modules and the app may use of it (docs/architecture.md). */
export { mergeRulesWithin, requireMergeRuleMembers } from "./merge-rules.service.ts";
export { addOrganizationParent, OrganizationDefaultContentRef, OrganizationRef } from "./organization.graphql.ts";
export { organizationExists, organizationOfReadable } from "./organization.loaders.ts";
export { organizationFields } from "./organization.rest.ts";
export { insertOrganization, memberParentOrganization, membershipOrganization } from "./organization.service.ts";
