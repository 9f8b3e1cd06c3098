import type { ModuleManifest } from "../module-manifest.ts";
import { idempotencyJobs } from "./idempotency.service.ts";

/** Idempotency keys of REST writes, and their clean-up job. No policy file: a key is kept per caller (`callerKey`). */
export const idempotencyModule: ModuleManifest = {
  name: "idempotency",
  jobs: idempotencyJobs,
};
