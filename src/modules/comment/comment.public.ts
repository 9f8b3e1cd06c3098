/** The comment module's door: all that other modules and the app may use of it (docs/architecture.md). */
export { commentRoutes } from "./comment.rest.ts";
