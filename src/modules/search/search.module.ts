import "./search.graphql.ts";
import type { ModuleManifest } from "../module-manifest.ts";
import { searchRoutes } from "./search.rest.ts";

/** Search of a space's or an organization's content. */
export const searchModule: ModuleManifest = {
  name: "search",
  restRoutes: searchRoutes,
};
