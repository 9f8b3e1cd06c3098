import { registerModuleJobs } from "../jobs/registry.ts";
import { contentJobs, writeFirstRevision } from "../modules/content/content.public.ts";
import { demoJobs } from "../modules/demo/demo.public.ts";
import { gitSyncJobs } from "../modules/git-sync/git-sync.public.ts";
import { idempotencyJobs } from "../modules/idempotency/idempotency.public.ts";
import { openApiSpecJobs } from "../modules/openapi-spec/openapi-spec.public.ts";
import { registerFirstRevisionWriter, spaceJobs } from "../modules/space/space.public.ts";
import { translationJobs } from "../modules/translation/translation.public.ts";

/**
 * The composition root's calls up the layers, made once when the process loads its modules (src/app/app.ts, src/app/cli.ts):
 * the engine gets the modules' jobs, and a lower module the piece of a higher one it calls (docs/architecture.md).
 */
registerFirstRevisionWriter(writeFirstRevision);
for (const jobs of [contentJobs, demoJobs, gitSyncJobs, idempotencyJobs, openApiSpecJobs, spaceJobs, translationJobs]) {
  registerModuleJobs(jobs);
}
