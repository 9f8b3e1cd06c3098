import "./team.graphql.ts";
import type { ModuleManifest } from "../module-manifest.ts";
import { teamRoutes } from "./team.rest.ts";

/** Teams and their members. */
export const teamModule: ModuleManifest = {
  name: "team",
  restRoutes: teamRoutes,
};
