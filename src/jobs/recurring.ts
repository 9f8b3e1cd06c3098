import { type Clock, systemClock } from "../clock.ts";
import { loadConfig } from "../config.ts";
import { contextActingAs } from "../context.ts";
import type { PrismaClient } from "../db/generated/client.ts";
import type { EventBus } from "../events/bus.ts";
import type { Logger } from "../logger.ts";
import { seedDemoContent } from "../modules/demo/demo.service.ts";
import { purgeDeletedSpaces } from "../modules/space/space.service.ts";
import { ensureRecurringJob, type JobHandlers, runDueJobs } from "./runner.ts";

const hour = 60 * 60 * 1000;

export const jobHandlers: JobHandlers = {
  "purge-deleted-spaces": {
    every: hour,
    run: async (prisma, _job, now) => {
      await purgeDeletedSpaces(prisma, now);
    },
  },
  /** Payload `{ userId, size }`: demo content created as that user (an admin of the job's organization). */
  "seed-demo-content": {
    run: async (prisma, job, _now, reportProgress, events) => {
      const { userId, size } = job.payload as { userId: string; size: unknown };
      // Seeding writes no URLs: the process's own configuration is enough for the context.
      const ctx = contextActingAs({ prisma, config: loadConfig(), clock: systemClock, events }, userId, job.id);
      await seedDemoContent(ctx, job.organizationId ?? "", size, reportProgress);
    },
  },
};

/** Schedules the recurring jobs (once per database, whatever the number of starts). */
export async function scheduleRecurringJobs(prisma: PrismaClient, clock: Clock): Promise<void> {
  for (const [type, handler] of Object.entries(jobHandlers)) {
    if (handler.every) await ensureRecurringJob(prisma, type, clock.now());
  }
}

/** Schedules the recurring jobs and runs due jobs now; tests call it with their clock instead of waiting. */
export async function runJobs(prisma: PrismaClient, clock: Clock, logger?: Logger, events?: EventBus): Promise<number> {
  await scheduleRecurringJobs(prisma, clock);
  return runDueJobs(prisma, clock, jobHandlers, logger, events);
}

/** Polls for due jobs every `intervalMs` until stopped; `stop` waits for the run in progress. */
export function startJobRunner(
  prisma: PrismaClient,
  clock: Clock,
  logger: Logger,
  events: EventBus,
  intervalMs = 30_000,
) {
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    running = running
      .then(() => runJobs(prisma, clock, logger, events))
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
