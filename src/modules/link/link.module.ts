import "./link.graphql.ts";
import type { ModuleManifest } from "../module-manifest.ts";
import { linkRoutes } from "./link.rest.ts";

/** Links between pages, and broken links. */
export const linkModule: ModuleManifest = {
  name: "link",
  restRoutes: linkRoutes,
};
