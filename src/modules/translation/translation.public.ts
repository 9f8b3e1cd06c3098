/** The translation module's door: all that other modules and the app may use of it (docs/architecture.md). */
export { translationRoutes } from "./translation.rest.ts";
export { translationJobs } from "./translation.service.ts";
