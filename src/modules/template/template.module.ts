import "./template.graphql.ts";
import type { ModuleManifest } from "../module-manifest.ts";
import { templateRoutes } from "./template.rest.ts";

/** Templates a space or change request starts from. */
export const templateModule: ModuleManifest = {
  name: "template",
  restRoutes: templateRoutes,
};
