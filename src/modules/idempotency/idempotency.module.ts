import type { ModuleManifest } from "../module-manifest.ts";
import { idempotencyJobs } from "./idempotency.service.ts";

/** Idempotency keys of REST writes, and their clean-up job. */
export const idempotencyModule: ModuleManifest = {
  name: "idempotency",
  jobs: idempotencyJobs,
};
