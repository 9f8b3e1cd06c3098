/** The template module's door: all that other modules and the app may use of it (docs/architecture.md). */
export { templateRoutes } from "./template.rest.ts";
