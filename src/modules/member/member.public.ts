/** The member module's door: all that other modules and the app may use of it (docs/architecture.md). */
export { MemberRef } from "./member.graphql.ts";
export { type MemberKey, memberCacheKey, organizationMember } from "./member.loaders.ts";
export { memberFields } from "./member.rest.ts";
export { getMember } from "./member.service.ts";
