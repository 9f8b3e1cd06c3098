import type { ModuleManifest } from "../module-manifest.ts";
import { demoJobs } from "./demo.service.ts";

/** The demo organization's content, seeded by a job. No policy file: only start-up and the CLI seed, no caller. */
export const demoModule: ModuleManifest = {
  name: "demo",
  jobs: demoJobs,
};
