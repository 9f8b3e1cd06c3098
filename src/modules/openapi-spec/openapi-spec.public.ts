/** The openapi-spec module's door: all that other modules and the app may use of it (docs/architecture.md). */
export { openApiSpecPlainRoutes } from "./openapi-spec.http.ts";
export { spaceSpecDocumentLoader } from "./openapi-spec.loaders.ts";
export { openApiSpecRoutes } from "./openapi-spec.rest.ts";
export { getReferencedSpec, openApiSpecJobs } from "./openapi-spec.service.ts";
export { renderOperationsMarkdown } from "./reference-markdown.ts";
