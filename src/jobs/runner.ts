import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import type { Database, PrismaExecutor } from "../db/database.ts";
import type { Job, PrismaClient } from "../db/generated/client.ts";
import type { SqlReader } from "../db/sql.ts";
import { type EventBus, inProcessEventBus } from "../events/bus.ts";
import type { JobStatus, JobUpdate } from "../events/topics.ts";
import { newId } from "../ids.ts";
import type { Logger } from "../logger.ts";
import { withSpan } from "../ops/tracing.ts";

/** Records how far a job is (`done` of `total` steps) and tells its watchers. */
export type ReportProgress = (done: number, total: number, message?: string) => Promise<void>;

/** What a running job may use besides the database: settings, progress reports and the event bus. */
interface JobTools {
  config: Config;
  sql: SqlReader;
  reportProgress: ReportProgress;
  events: EventBus;
}

/** What a job type does; `every` makes it recurring (rescheduled after each successful run). */
interface JobHandler {
  run(prisma: PrismaClient, job: Job, now: Date, tools: JobTools): Promise<void>;
  every?: number;
}

export type JobHandlers = Record<string, JobHandler>;

/** The database a job runner works on. */
export type JobDatabase = Pick<Database, "prisma" | "sql">;

export const maxAttempts = 5;
/** A claimed job not finished within this time (a crashed runner) is claimed again. */
const lockMs = 5 * 60 * 1000;

/** Retry delay after the n-th failed attempt: 30 s, 1 min, 2 min, ... capped at 1 h. */
export function backoffMs(attempts: number): number {
  return Math.min(30_000 * 2 ** (attempts - 1), 60 * 60 * 1000);
}

/** `organizationId` lets that organization's members watch the job (GraphQL `jobProgress`, `jobUpdates`). */
export function enqueueJob(
  prisma: PrismaExecutor,
  type: string,
  payload: object,
  runAt: Date,
  organizationId?: string,
): Promise<Job> {
  return prisma.job.create({
    data: { id: newId("Job"), type, payload, runAt, organizationId, createdAt: runAt, updatedAt: runAt },
  });
}

export function jobUpdateOf(job: Job): JobUpdate {
  return {
    id: job.id,
    type: job.type,
    organizationId: job.organizationId,
    status: job.status as JobStatus,
    progressDone: job.progressDone,
    progressTotal: job.progressTotal,
    progressMessage: job.progressMessage,
    lastError: job.lastError,
    updatedAt: job.updatedAt.toISOString(),
  };
}

/** Tells the job's watchers (on every instance) its new state. */
async function publishJobUpdate(events: EventBus, job: Job): Promise<void> {
  const update = jobUpdateOf(job);
  await events.publish("jobUpdated", job.id, update);
  if (job.organizationId) await events.publish("organizationJobUpdated", job.organizationId, update);
}

/**
 * Makes sure each recurring job of `types` exists once (a fixed id per type, whatever the number of starts),
 * created due now. Which exist is read through the hand-written reads: an instance whose jobs are all scheduled
 * and none due never loads Prisma's query engine (see main.ts).
 */
export async function ensureRecurringJobs({ prisma, sql }: JobDatabase, types: string[], now: Date): Promise<void> {
  const ids = types.map((type) => `job_recurring_${type}`);
  const existing = new Set(
    (await sql.rows<{ id: string }>(`SELECT id FROM "Job" WHERE id = ANY($1)`, [ids])).map((row) => row.id),
  );
  const missing = types.filter((_type, index) => !existing.has(ids[index] as string));
  if (missing.length === 0) return;
  await prisma.job.createMany({
    data: missing.map((type) => ({ id: `job_recurring_${type}`, type, runAt: now, createdAt: now, updatedAt: now })),
    skipDuplicates: true,
  });
}

/** Whether a job is due, as `claimJob` sees it: the check a runner with nothing to do makes every tick. */
async function anyJobDue(sql: SqlReader, now: Date): Promise<boolean> {
  const rows = await sql.rows(
    `SELECT 1 FROM "Job"
     WHERE ("status" = 'pending' AND "runAt" <= $1::timestamp) OR ("status" = 'running' AND "lockedUntil" < $1::timestamp)
     LIMIT 1`,
    [now],
  );
  return rows.length > 0;
}

/**
 * Claims one due job: pending and due, or running with an expired lock. `FOR UPDATE SKIP LOCKED` lets several
 * runners (processes) claim concurrently without taking the same job.
 */
async function claimJob(prisma: PrismaClient, now: Date): Promise<Job | null> {
  // Prisma stores UTC wall times in timestamp columns: compare with UTC wall times, whatever the session time zone.
  const at = now.toISOString();
  const lockedUntil = new Date(now.getTime() + lockMs).toISOString();
  const rows = await prisma.$queryRaw<Job[]>`
    UPDATE "Job" SET "status" = 'running', "attempts" = "attempts" + 1,
      "lockedUntil" = ${lockedUntil}::timestamp, "updatedAt" = ${at}::timestamp
    WHERE "id" = (
      SELECT "id" FROM "Job"
      WHERE ("status" = 'pending' AND "runAt" <= ${at}::timestamp)
        OR ("status" = 'running' AND "lockedUntil" < ${at}::timestamp)
      ORDER BY "runAt", "id"
      LIMIT 1
      FOR UPDATE SKIP LOCKED
    )
    RETURNING *`;
  return rows[0] ?? null;
}

async function finishJob(
  prisma: PrismaClient,
  job: Job,
  handler: JobHandler | undefined,
  now: Date,
  error?: unknown,
): Promise<Job> {
  if (error === undefined && handler?.every) {
    return prisma.job.update({
      where: { id: job.id },
      data: {
        status: "pending",
        attempts: 0,
        lockedUntil: null,
        lastError: null,
        runAt: new Date(now.getTime() + handler.every),
        updatedAt: now,
      },
    });
  }
  if (error === undefined) {
    return prisma.job.update({ where: { id: job.id }, data: { status: "done", lockedUntil: null, updatedAt: now } });
  }
  const lastError = error instanceof Error ? error.message : String(error);
  const retry = job.attempts < maxAttempts;
  return prisma.job.update({
    where: { id: job.id },
    data: {
      status: retry ? "pending" : "failed",
      runAt: retry ? new Date(now.getTime() + backoffMs(job.attempts)) : job.runAt,
      lockedUntil: null,
      lastError,
      updatedAt: now,
    },
  });
}

/**
 * Runs every job due at `clock.now()`, one at a time; returns how many ran. Tests call it with their clock.
 * With `events`, each state change and progress report is published (`jobUpdated`, `organizationJobUpdated`).
 */
export async function runDueJobs(
  { prisma, sql }: JobDatabase,
  clock: Clock,
  config: Config,
  handlers: JobHandlers,
  logger?: Logger,
  events?: EventBus,
): Promise<number> {
  const bus = events ?? (await inProcessEventBus(logger));
  const publish = (job: Job) => publishJobUpdate(bus, job);
  let ran = 0;
  if (!(await anyJobDue(sql, clock.now()))) return ran;
  for (;;) {
    const now = clock.now();
    const job = await claimJob(prisma, now);
    if (!job) return ran;
    ran += 1;
    await publish(job);
    const handler = handlers[job.type];
    const reportProgress: ReportProgress = async (done, total, message) => {
      await publish(
        await prisma.job.update({
          where: { id: job.id },
          data: { progressDone: done, progressTotal: total, progressMessage: message ?? null, updatedAt: clock.now() },
        }),
      );
    };
    let finished: Job;
    try {
      if (!handler) throw new Error(`No handler for job type ${job.type}`);
      await withSpan(`job ${job.type}`, () =>
        handler.run(prisma, job, now, { config, sql, reportProgress, events: bus }),
      );
      finished = await finishJob(prisma, job, handler, clock.now());
    } catch (error) {
      logger?.warn("job failed", { jobId: job.id, type: job.type, attempts: job.attempts, error: String(error) });
      finished = await finishJob(prisma, job, handler, clock.now(), error);
    }
    await publish(finished);
  }
}

/** Jobs per status, every status present (0 when none), for the queue-depth metric. */
export async function countJobsByStatus(sql: SqlReader): Promise<Record<string, number>> {
  const counts: Record<string, number> = { pending: 0, running: 0, done: 0, failed: 0 };
  const groups = await sql.rows<{ status: string; count: number }>(
    `SELECT status, count(*)::int AS count FROM "Job" GROUP BY status`,
  );
  for (const group of groups) counts[group.status] = group.count;
  return counts;
}
