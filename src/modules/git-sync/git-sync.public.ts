/** The git-sync module's door: all that other modules and the app may use of it (docs/architecture.md). */
export { gitSyncRoutes } from "./git-sync.rest.ts";
export { gitSyncJobs } from "./git-sync.service.ts";
