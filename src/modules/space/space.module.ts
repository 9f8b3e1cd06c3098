import "./space.graphql.ts";
import "./space-list.graphql.ts";
import "./space-write.graphql.ts";
import type { ModuleManifest } from "../module-manifest.ts";
import { spaceRoutes } from "./space.rest.ts";
import { spaceJobs } from "./space.service.ts";

/** Spaces, collections and their permissions. */
export const spaceModule: ModuleManifest = {
  name: "space",
  restRoutes: spaceRoutes,
  jobs: spaceJobs,
};
