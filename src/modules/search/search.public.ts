/** The search module's door: all that other modules and the app may use of it (docs/architecture.md). */
export { searchRoutes } from "./search.rest.ts";
