import "./comment.graphql.ts";
import "./comment-write.graphql.ts";
import type { ModuleManifest } from "../module-manifest.ts";
import { commentRoutes } from "./comment.rest.ts";

/** Comments and replies on pages and change requests. */
export const commentModule: ModuleManifest = {
  name: "comment",
  restRoutes: commentRoutes,
};
