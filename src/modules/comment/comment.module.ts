import "./comment.graphql.ts";
import "./comment-write.graphql.ts";
import type { ModuleManifest } from "../module-manifest.ts";
import { commentRoutes } from "./comment.rest.ts";

/**
 * Comments and replies on pages and change requests. No policy file: who may comment is the space's role rule
 * (space.policy.ts, `requireSpaceRole`), authors' rights are in `messagePermissions`.
 */
export const commentModule: ModuleManifest = {
  name: "comment",
  restRoutes: commentRoutes,
};
