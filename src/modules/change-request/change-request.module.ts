import "./change-request.graphql.ts";
import "./change-request-write.graphql.ts";
import "./change-request-review.graphql.ts";
import "./change-request-events.graphql.ts";
import type { ModuleManifest } from "../module-manifest.ts";
import { changeRequestRoutes } from "./change-request.rest.ts";

/** Change requests: edits, reviews, merges and their events. */
export const changeRequestModule: ModuleManifest = {
  name: "change-request",
  restRoutes: changeRequestRoutes,
};
