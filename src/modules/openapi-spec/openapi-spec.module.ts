import "./openapi-spec.graphql.ts";
import "./openapi-spec-write.graphql.ts";
import type { ModuleManifest } from "../module-manifest.ts";
import { openApiSpecPlainRoutes } from "./openapi-spec.http.ts";
import { openApiSpecRoutes } from "./openapi-spec.rest.ts";
import { openApiSpecJobs } from "./openapi-spec.service.ts";

/** OpenAPI specs, their versions and their source files. */
export const openapiSpecModule: ModuleManifest = {
  name: "openapi-spec",
  restRoutes: openApiSpecRoutes,
  plainRoutes: openApiSpecPlainRoutes,
  jobs: openApiSpecJobs,
};
