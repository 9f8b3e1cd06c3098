/** The openapi-spec module's door: all that other modules and the app may use of it (docs/architecture.md). */
export { specDocumentFor } from "./openapi-spec.loaders.ts";
export { getReferencedSpec } from "./openapi-spec.service.ts";
export { renderOperationsMarkdown } from "./reference-markdown.ts";
