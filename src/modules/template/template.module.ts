import "./template.graphql.ts";
import type { ModuleManifest } from "../module-manifest.ts";
import { templateRoutes } from "./template.rest.ts";

/** Templates a space or change request starts from. No policy file: the space's role rule decides (space.policy.ts). */
export const templateModule: ModuleManifest = {
  name: "template",
  restRoutes: templateRoutes,
};
