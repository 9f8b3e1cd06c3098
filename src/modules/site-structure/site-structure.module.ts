import "./site.graphql.ts";
import "./site-write.graphql.ts";
import "./share-link.graphql.ts";
import "./site-space.graphql.ts";
import "./site-section.graphql.ts";
import "./section-group.graphql.ts";
import "./published.graphql.ts";
import "./site-parents.graphql.ts";
import type { ModuleManifest } from "../module-manifest.ts";
import { sectionGroupRoutes } from "./section-group.rest.ts";
import { shareLinkRoutes } from "./share-link.rest.ts";
import { siteRoutes } from "./site.rest.ts";
import { siteSectionRoutes } from "./site-section.rest.ts";
import { siteSpaceRoutes } from "./site-space.rest.ts";

/** Sites, their sections, section groups, site spaces and share links. */
export const siteStructureModule: ModuleManifest = {
  name: "site-structure",
  restRoutes: [...siteRoutes, ...shareLinkRoutes, ...siteSectionRoutes, ...sectionGroupRoutes, ...siteSpaceRoutes],
};
