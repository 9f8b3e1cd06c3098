import "./member.graphql.ts";
import type { ModuleManifest } from "../module-manifest.ts";
import { memberRoutes } from "./member.rest.ts";

/** An organization's members and their roles. */
export const memberModule: ModuleManifest = {
  name: "member",
  restRoutes: memberRoutes,
};
