import "./job.graphql.ts";
import type { ModuleManifest } from "../module-manifest.ts";

/** Jobs as the API shows them (their state and progress). */
export const jobModule: ModuleManifest = {
  name: "job",
};
