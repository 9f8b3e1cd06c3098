import "./git-sync.graphql.ts";
import type { ModuleManifest } from "../module-manifest.ts";
import { gitSyncRoutes } from "./git-sync.rest.ts";
import { gitSyncJobs } from "./git-sync.service.ts";

/** Git import and export of a space's content. No policy file: the space's role rule decides (space.policy.ts). */
export const gitSyncModule: ModuleManifest = {
  name: "git-sync",
  restRoutes: gitSyncRoutes,
  jobs: gitSyncJobs,
};
