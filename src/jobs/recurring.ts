import { type Clock, systemClock } from "../clock.ts";
import type { Config } from "../config.ts";
import { contextActingAs } from "../context.ts";
import type { EventBus } from "../events/bus.ts";
import type { Logger } from "../logger.ts";
import { purgeExpiredExports } from "../modules/content/content.service.ts";
import { seedDemoContent } from "../modules/demo/demo.service.ts";
import {
  gitExportJobType,
  gitImportJobType,
  processGitExport,
  processGitImport,
} from "../modules/git-sync/git-sync.service.ts";
import { purgeIdempotencyRecords } from "../modules/idempotency/idempotency.service.ts";
import { processSpec, processSpecJobType } from "../modules/openapi-spec/openapi-spec.service.ts";
import { purgeDeletedSpaces } from "../modules/space/space.service.ts";
import { processTranslationRun, translationRunJobType } from "../modules/translation/translation.service.ts";
import { ensureRecurringJobs, type JobDatabase, type JobHandlers, runDueJobs } from "./runner.ts";

const hour = 60 * 60 * 1000;

const jobHandlers: JobHandlers = {
  "purge-deleted-spaces": {
    every: hour,
    run: async (prisma, _job, now) => {
      await purgeDeletedSpaces(prisma, now);
    },
  },
  "purge-expired-exports": {
    every: hour,
    run: async (prisma, _job, now) => {
      await purgeExpiredExports(prisma, now);
    },
  },
  [processSpecJobType]: { run: (prisma, job, now, { config }) => processSpec(prisma, job, now, config) },
  [translationRunJobType]: {
    run: (prisma, job, now, { config }) => processTranslationRun(prisma, job, now, config),
  },
  [gitImportJobType]: { run: (prisma, job, now, { config }) => processGitImport(prisma, job, now, config) },
  [gitExportJobType]: { run: (prisma, job, now, { config }) => processGitExport(prisma, job, now, config) },
  // Idempotency keys are kept 24 hours.
  "purge-idempotency-records": {
    every: hour,
    run: async (prisma, _job, now) => {
      await purgeIdempotencyRecords(prisma, now);
    },
  },
  /** Payload `{ userId, size }`: demo content created as that user (an admin of the job's organization). */
  "seed-demo-content": {
    run: async (prisma, job, _now, { config, sql, reportProgress, events }) => {
      const { userId, size } = job.payload as { userId: string; size: unknown };
      const ctx = contextActingAs({ prisma, sql, config, clock: systemClock, events }, userId, job.id);
      await seedDemoContent(ctx, job.organizationId ?? "", size, reportProgress);
    },
  },
};

/** Schedules the recurring jobs (once per database, whatever the number of starts). */
const recurringJobTypes = Object.entries(jobHandlers)
  .filter(([, handler]) => handler.every)
  .map(([type]) => type);

/** Schedules the recurring jobs and runs due jobs now; tests call it with their clock instead of waiting. */
export async function runJobs(
  db: JobDatabase,
  clock: Clock,
  config: Config,
  logger?: Logger,
  events?: EventBus,
): Promise<number> {
  await ensureRecurringJobs(db, recurringJobTypes, clock.now());
  return runDueJobs(db, clock, config, jobHandlers, logger, events);
}

/** Polls for due jobs every `intervalMs` until stopped; `stop` waits for the run in progress. */
export function startJobRunner(
  db: JobDatabase,
  clock: Clock,
  config: Config,
  logger: Logger,
  events: EventBus,
  intervalMs = 30_000,
) {
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    running = running
      .then(() => runJobs(db, clock, config, logger, events))
      .catch((error: unknown) => logger.error("job runner failed", { error: String(error) }));
  };
  tick();
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
