/** The site-structure module's door: all that other modules and the app may use of it (docs/architecture.md). */
export { createSite, encryptStoredVisitorAuthKeys } from "./site.service.ts";
export { addSiteSection } from "./site-section.service.ts";
export { addSiteSpace } from "./site-space.service.ts";
