import { registerModuleJobs } from "../jobs/registry.ts";
import { modules } from "./modules.ts";

/**
 * The composition root's calls up the layers, made once when the process loads its modules (src/app/app.ts,
 * src/app/cli.ts): the engine gets the modules' jobs, and a lower module the piece of a higher one it calls
 * (docs/architecture.md).
 */
for (const module of modules) {
  module.wire?.();
  if (module.jobs) registerModuleJobs(module.jobs);
}
