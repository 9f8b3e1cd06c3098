/** The site-structure module's door: all that other modules and the app may use of it (docs/architecture.md). */
export { sectionGroupRoutes } from "./section-group.rest.ts";
export { shareLinkRoutes } from "./share-link.rest.ts";
export { siteRoutes } from "./site.rest.ts";
export { createSite, encryptStoredVisitorAuthKeys } from "./site.service.ts";
export { siteSectionRoutes } from "./site-section.rest.ts";
export { addSiteSection } from "./site-section.service.ts";
export { siteSpaceRoutes } from "./site-space.rest.ts";
export { addSiteSpace } from "./site-space.service.ts";
