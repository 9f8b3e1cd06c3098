/** The team module's door: all that other modules and the app may use of it (docs/architecture.md). */
export { TeamRef } from "./team.graphql.ts";
export { organizationTeam } from "./team.loaders.ts";
export { teamFields } from "./team.rest.ts";
export { createTeam, insertTeam } from "./team.service.ts";
