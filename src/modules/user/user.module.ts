import "./user.graphql.ts";
import type { ModuleManifest } from "../module-manifest.ts";

/** Users, the viewer and their API tokens. */
export const userModule: ModuleManifest = {
  name: "user",
};
