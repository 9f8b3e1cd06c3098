import { performance } from "node:perf_hooks";
import type PgBoss from "pg-boss";
import type { Database } from "../db/database.ts";
import type { Job } from "../db/generated/client.ts";
import { jobEngineSchema as engineSchema } from "../db/migrate.ts";
import type { EventBus } from "../events/bus.ts";
import type { Clock } from "../platform/clock.ts";
import type { Config } from "../platform/config.ts";
import type { Logger } from "../platform/logger.ts";
import { withSpan } from "../platform/tracing.ts";
import {
  handOverWaitingRows,
  type JobHandler,
  jobQueue,
  jobsQueuedChannel,
  jobUpdateOf,
  maxAttempts,
  type ReportProgress,
  type ScheduledWork,
} from "./queue.ts";
import { jobHandlers, scheduledWork } from "./registry.ts";

/**
 * The job engine: pg-boss (schema `pgboss`) claims, retries and schedules; this file runs what it claims.
 * JOB_CONCURRENCY workers take one job each; a NOTIFY sent by the transaction that added a job (job-queue.ts) wakes an
 * idle worker of every instance at its commit; workers poll every JOB_POLL_INTERVAL_SECONDS only for retries due.
 * Jobs are taken by rank (job-queue.ts: an organization's n-th waiting job has priority -n), then age. An organization
 * runs at most JOB_CONCURRENCY_PER_ORGANIZATION jobs at once across instances: a worker that takes one more of its
 * jobs puts it back, a little later, and takes the next, so one organization's flood of slow jobs leaves workers to
 * the others. (pg-boss 10's singleton policy would allow one per key, and a worker that meets a second blocks on it
 * instead of taking the next.)
 */

/** How one run ended, for the metrics: `retry` failed with attempts left, `failed` failed for good. */
type JobOutcome = "done" | "retry" | "failed";
export type ObserveJob = (run: { type: string; outcome: JobOutcome; seconds: number }) => void;

type EngineDatabase = Pick<Database, "prisma" | "sql" | "engineSql" | "listen">;

interface JobEngineOptions {
  db: EngineDatabase;
  clock: Clock;
  config: Config;
  logger: Logger;
  events: EventBus;
  observe?: ObserveJob;
  /** False: jobs run only when polled or drained (tests that look at a job before it runs). */
  wakeOnCommit?: boolean;
  /** False: scheduled work runs only when `runScheduledNow` adds it (tests, which an hour's turn must not disturb). */
  onSchedule?: boolean;
}

export interface JobEngine {
  /** Waits for jobs in progress (up to the shutdown's limit), then stops. */
  stop(): Promise<void>;
  /** Runs every job due now, and those they add, then resolves with how many ran (tests: no waiting on timers). */
  drain(): Promise<number>;
  /** Adds a run of each scheduled work now (tests: an hour need not pass). */
  runScheduledNow(): Promise<void>;
}

class JobTimeoutError extends Error {}

/** Extra time the engine gives a job before its own expiry takes it back, past our abort (a crashed worker). */
const expiryMarginSeconds = 60;
/** Scheduled work is added by the engine's cron monitor; a run waits at most this for a worker. */
const scheduledPollSeconds = 30;
/** How long `stop` waits for jobs in progress before they are aborted (retried by another instance later). */
const stopTimeoutMs = 8_000;
/** A job put back because its organization is at its limit waits 1 s, then twice as long each time, up to this. */
const maxDeferSeconds = 16;

/** The engine's job data: the "Job" row, and how many times it was put back for its organization's limit. */
interface EngineJobData {
  jobId: string;
  deferrals?: number;
  /** The W3C trace context of the request that queued the job: its span links to it. */
  traceparent?: string;
}

export async function startJobEngine({
  db,
  clock,
  config,
  logger,
  events,
  observe,
  wakeOnCommit = true,
  onSchedule = true,
}: JobEngineOptions) {
  // Imported here, not with the module: pg-boss loads `pg`, which must load after tracing starts (main.ts) for its
  // instrumentation to patch it, and a process that runs no jobs never needs either.
  const { default: Engine } = await import("pg-boss");
  const boss = new Engine({
    schema: engineSchema,
    db: { executeSql: (text, values) => db.engineSql(text, values) },
    schedule: onSchedule && scheduledWork.size > 0,
  });
  boss.on("error", (error) => logger.warn("job engine error", { error: error.message }));
  await boss.start();

  const running = new Set<AbortController>();
  let ran = 0;
  let finishedOne: () => void = () => {};
  const timeoutMs = config.jobTimeoutSeconds * 1000;
  const queueSettings = {
    retryLimit: maxAttempts - 1,
    retryDelay: config.jobRetryDelaySeconds,
    // With no delay, retries are immediate (pg-boss's backoff has a floor of one second).
    retryBackoff: config.jobRetryDelaySeconds > 0,
    expireInSeconds: config.jobTimeoutSeconds + expiryMarginSeconds,
  };
  await ensureQueue(boss, jobQueue, queueSettings);

  /** Runs `work` with an AbortSignal that fires at the job's time limit, and gives up waiting for it then. */
  async function withTimeout(work: (signal: AbortSignal) => Promise<void>): Promise<void> {
    const controller = new AbortController();
    running.add(controller);
    const timer = setTimeout(
      () => controller.abort(new JobTimeoutError(`The job did not finish within ${config.jobTimeoutSeconds} s`)),
      timeoutMs,
    );
    try {
      await new Promise<void>((resolve, reject) => {
        controller.signal.addEventListener("abort", () => reject(controller.signal.reason), { once: true });
        work(controller.signal).then(resolve, reject);
      });
    } finally {
      clearTimeout(timer);
      running.delete(controller);
    }
  }

  async function publish(job: Job) {
    const update = jobUpdateOf(job);
    await events.publish("jobUpdated", job.id, update);
    if (job.organizationId) await events.publish("organizationJobUpdated", job.organizationId, update);
  }

  /**
   * Claims the job's row: pending, or running when the engine gives it back after a crashed worker. "busy" when its
   * organization already runs its share of jobs (rows running within their lock, on any instance): the advisory lock
   * keeps two workers from both taking the last place.
   */
  async function claimRow(jobId: string, now: Date): Promise<Job | "busy" | undefined> {
    // Prisma stores UTC wall times in timestamp columns: compare with UTC wall times, whatever the session time zone.
    const at = now.toISOString();
    const lockedUntil = new Date(now.getTime() + timeoutMs).toISOString();
    return db.prisma.$transaction(async (tx) => {
      const [row] = await tx.$queryRaw<Pick<Job, "organizationId">[]>`
        SELECT "organizationId" FROM "Job" WHERE "id" = ${jobId} AND "status" IN ('pending', 'running')`;
      if (!row) return undefined;
      if (row.organizationId) {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`jobs of ${row.organizationId}`}))`;
        const [share] = await tx.$queryRaw<{ running: number }[]>`
          SELECT count(*)::int AS running FROM "Job"
          WHERE "organizationId" = ${row.organizationId} AND "status" = 'running'
            AND "lockedUntil" > ${at}::timestamp AND "id" <> ${jobId}`;
        if ((share?.running ?? 0) >= config.jobConcurrencyPerOrganization) return "busy";
      }
      const rows = await tx.$queryRaw<Job[]>`
        UPDATE "Job" SET "status" = 'running', "attempts" = "attempts" + 1,
          "lockedUntil" = ${lockedUntil}::timestamp, "updatedAt" = ${at}::timestamp
        WHERE "id" = ${jobId} AND "status" IN ('pending', 'running')
        RETURNING *`;
      return rows[0];
    });
  }

  /** Runs the job of `engineJob`; false when it was put back for its organization's limit (it did not run). */
  async function runRow(engineJob: PgBoss.JobWithMetadata<EngineJobData>): Promise<boolean> {
    const started = performance.now();
    const now = clock.now();
    const { jobId, deferrals = 0 } = engineJob.data;
    const job = await claimRow(jobId, now);
    if (job === "busy") {
      // Put back as a new engine job, with its rank and the retries this one had left.
      const { traceparent } = engineJob.data;
      await boss.send(jobQueue, { jobId, deferrals: deferrals + 1, traceparent } satisfies EngineJobData, {
        startAfter: Math.min(2 ** deferrals, maxDeferSeconds),
        retryLimit: engineJob.retryLimit - engineJob.retryCount,
        priority: engineJob.priority,
      });
      return false;
    }
    // Done, failed or deleted meanwhile: nothing left to do.
    if (!job) return true;
    await publish(job);
    const handler: JobHandler | undefined = jobHandlers.get(job.type);
    const reportProgress: ReportProgress = async (done, total, message) => {
      await publish(
        await db.prisma.job.update({
          where: { id: job.id },
          data: { progressDone: done, progressTotal: total, progressMessage: message ?? null, updatedAt: clock.now() },
        }),
      );
    };
    let outcome: JobOutcome = "done";
    try {
      if (!handler) throw new Error(`No handler for job type ${job.type}`);
      await withSpan(
        `job ${job.type}`,
        () =>
          withTimeout((signal) =>
            handler.run(db.prisma, job, now, { config, sql: db.sql, reportProgress, events, signal }),
          ),
        { "job.name": job.type, "job.id": job.id },
        engineJob.data.traceparent,
      );
      await publish(
        await db.prisma.job.update({
          where: { id: job.id },
          data: { status: "done", lockedUntil: null, updatedAt: clock.now() },
        }),
      );
    } catch (error) {
      outcome = engineJob.retryCount >= engineJob.retryLimit ? "failed" : "retry";
      logger.warn("job failed", { jobId: job.id, type: job.type, attempts: job.attempts, error: String(error) });
      await publish(
        await db.prisma.job.update({
          where: { id: job.id },
          data: {
            status: outcome === "failed" ? "failed" : "pending",
            lockedUntil: null,
            lastError: error instanceof Error ? error.message : String(error),
            updatedAt: clock.now(),
          },
        }),
      );
      // The engine records the failure and schedules the retry with backoff.
      throw error;
    } finally {
      observe?.({ type: job.type, outcome, seconds: (performance.now() - started) / 1000 });
    }
    return true;
  }

  async function runScheduled(
    name: string,
    work: ScheduledWork,
    engineJob: PgBoss.JobWithMetadata<object>,
  ): Promise<void> {
    const started = performance.now();
    let outcome: JobOutcome = "done";
    try {
      await withSpan(`scheduled ${name}`, () =>
        withTimeout((signal) => work.run(db.prisma, clock.now(), { config, sql: db.sql, events, signal })),
      );
    } catch (error) {
      outcome = engineJob.retryCount >= engineJob.retryLimit ? "failed" : "retry";
      logger.warn("scheduled work failed", { name, error: String(error) });
      throw error;
    } finally {
      observe?.({ type: name, outcome, seconds: (performance.now() - started) / 1000 });
    }
  }

  const workerIds: string[] = [];
  const scheduledWorkerIds: string[] = [];
  const busy = new Set<string>();
  let lastWoken = 0;
  /**
   * One job committed (each NOTIFY names its job, so PostgreSQL does not fold a transaction's several into one):
   * the next idle worker fetches it. Busy workers look for more after their job anyway.
   */
  const wake = () => {
    for (let step = 1; step <= workerIds.length; step++) {
      const index = (lastWoken + step) % workerIds.length;
      const id = workerIds[index] as string;
      if (busy.has(id)) continue;
      lastWoken = index;
      boss.notifyWorker(id);
      return;
    }
  };
  for (let index = 0; index < config.jobConcurrency; index++) {
    let id = "";
    id = await boss.work<EngineJobData>(
      jobQueue,
      { batchSize: 1, includeMetadata: true, pollingIntervalSeconds: config.jobPollIntervalSeconds },
      async ([engineJob]) => {
        busy.add(id);
        let didRun = true;
        try {
          if (engineJob) didRun = await runRow(engineJob);
        } finally {
          busy.delete(id);
          if (didRun) ran += 1;
          // pg-boss waits its polling interval after a job: more may be waiting already.
          boss.notifyWorker(id);
          finishedOne();
        }
      },
    );
    workerIds.push(id);
  }
  for (const [name, work] of scheduledWork) {
    await ensureQueue(boss, name, { ...queueSettings, retryLimit: 2 });
    await boss.schedule(name, work.cron, {}, { tz: "UTC" });
    const id = await boss.work<object>(
      name,
      { batchSize: 1, includeMetadata: true, pollingIntervalSeconds: scheduledPollSeconds },
      async ([engineJob]) => {
        try {
          if (engineJob) await runScheduled(name, work, engineJob);
        } finally {
          ran += 1;
          finishedOne();
        }
      },
    );
    scheduledWorkerIds.push(id);
  }
  const listening = wakeOnCommit ? await db.listen(jobsQueuedChannel, wake) : undefined;

  // Rows added before the engine ran them (the polling runner's queue) are handed over once. Checked through the
  // hand-written reads: a start with none left does not load Prisma's query engine (see main.ts).
  const [waiting] = await db.sql.rows(
    `SELECT 1 FROM "Job" j WHERE j."status" IN ('pending', 'running')
       AND NOT EXISTS (SELECT 1 FROM ${engineSchema}.job e WHERE e.name = $1 AND e.data->>'jobId' = j."id") LIMIT 1`,
    [jobQueue],
  );
  if (waiting) {
    const handedOver = await handOverWaitingRows(db.prisma);
    logger.info("jobs handed over to the job engine", { count: handedOver });
  }

  const queues = [jobQueue, ...scheduledWork.keys()];
  /** Jobs running (within their expiry), due and waiting for a worker, or put back for their organization's limit. */
  async function pending(): Promise<number> {
    const { rows } = await db.engineSql(
      `SELECT count(*)::int AS count FROM ${engineSchema}.job
       WHERE name = ANY($1) AND (state IN ('created', 'retry') AND start_after <= now()
         OR state = 'created' AND data ? 'deferrals'
         OR state = 'active' AND started_on + expire_in > now())`,
      [queues],
    );
    return (rows[0] as { count: number }).count;
  }

  return {
    async stop() {
      await listening?.close();
      const aborting = setTimeout(() => {
        for (const controller of running) controller.abort(new JobTimeoutError("The job engine stopped"));
      }, stopTimeoutMs);
      await boss.stop({ graceful: true, close: false, timeout: stopTimeoutMs + 1000 });
      clearTimeout(aborting);
    },
    async drain() {
      const before = ran;
      // Jobs of crashed workers past their expiry are given back first (maintenance does it every few minutes).
      await boss.expire();
      // Done once nothing is pending, nor running here, at two checks in a row: a job whose handler has just ended
      // is, for a moment, between that end and the engine's update of its state (a retry not yet scheduled).
      for (let quietChecks = 0; quietChecks < 2; ) {
        if ((await pending()) > 0 || running.size > 0) {
          quietChecks = 0;
          for (const id of [...workerIds, ...scheduledWorkerIds]) boss.notifyWorker(id);
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, 20);
            finishedOne = () => {
              clearTimeout(timer);
              resolve();
            };
          });
        } else {
          quietChecks++;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
      return ran - before;
    },
    async runScheduledNow() {
      for (const name of scheduledWork.keys()) await boss.send(name, {});
    },
  } satisfies JobEngine;
}

/** Creates the queue, or applies the settings of this start to it (they may have changed). */
async function ensureQueue(boss: PgBoss, name: string, settings: Omit<PgBoss.Queue, "name">): Promise<void> {
  if (await boss.getQueue(name)) await boss.updateQueue(name, { name, ...settings });
  else await boss.createQueue(name, { name, ...settings });
}
