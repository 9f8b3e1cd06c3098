import "./search.graphql.ts";
import type { ModuleManifest } from "../module-manifest.ts";
import { searchRoutes } from "./search.rest.ts";

/**
 * Search of a space's or an organization's content. No policy file: it finds only the spaces the space policy's
 * read rule admits, written as a filter (`visibleSpacesSql`).
 */
export const searchModule: ModuleManifest = {
  name: "search",
  restRoutes: searchRoutes,
};
