/** The link module's door: all that other modules and the app may use of it (docs/architecture.md). */
export { linkRoutes } from "./link.rest.ts";
