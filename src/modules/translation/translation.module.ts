import "./translation.graphql.ts";
import type { ModuleManifest } from "../module-manifest.ts";
import { translationRoutes } from "./translation.rest.ts";
import { translationJobs } from "./translation.service.ts";

/** Translations of a space into other languages, run as jobs. */
export const translationModule: ModuleManifest = {
  name: "translation",
  restRoutes: translationRoutes,
  jobs: translationJobs,
};
