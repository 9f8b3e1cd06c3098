import "./organization.graphql.ts";
import "./link-invite.graphql.ts";
import type { ModuleManifest } from "../module-manifest.ts";
import { organizationRoutes } from "./organization.rest.ts";

/** Organizations, their settings and link invites. */
export const organizationModule: ModuleManifest = {
  name: "organization",
  restRoutes: organizationRoutes,
};
