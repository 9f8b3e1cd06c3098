import "./link.graphql.ts";
import type { ModuleManifest } from "../module-manifest.ts";
import { linkRoutes } from "./link.rest.ts";

/** Links between pages, and broken links. No policy file: links are read with their space (space.policy.ts). */
export const linkModule: ModuleManifest = {
  name: "link",
  restRoutes: linkRoutes,
};
