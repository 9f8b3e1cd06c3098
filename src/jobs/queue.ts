import type PgBoss from "pg-boss";
import type { PrismaExecutor } from "../db/database.ts";
import type { Job, PrismaClient } from "../db/generated/client.ts";
import { jobEngineSchema as engineSchema } from "../db/migrate.ts";
import type { SqlReader } from "../db/sql.ts";
import type { EventBus } from "../events/bus.ts";
import type { JobStatus, JobUpdate } from "../events/topics.ts";
import type { Config } from "../platform/config.ts";
import { newId } from "../platform/ids.ts";
import { currentTraceparent } from "../platform/tracing.ts";

/**
 * The jobs layer's contract with the modules: the shape of their job types (the engine, src/jobs/engine.ts, runs
 * them) and adding jobs inside their own transactions. The "Job" row is the user-visible record of a job (status,
 * progress, last error); the engine's own row (schema `pgboss`) schedules and retries it.
 */

/** Records how far a job is (`done` of `total` steps) and tells its watchers. */
export type ReportProgress = (done: number, total: number, message?: string) => Promise<void>;

/** What a running job may use besides the database. */
interface JobTools {
  config: Config;
  sql: SqlReader;
  reportProgress: ReportProgress;
  events: EventBus;
  /** Aborted when the job runs out of time (JOB_TIMEOUT_SECONDS) or the engine stops: I/O should stop then. */
  signal: AbortSignal;
}

export interface JobHandler {
  run(prisma: PrismaClient, job: Job, now: Date, tools: JobTools): Promise<void>;
}

/** Work on a schedule (cron, UTC), with no "Job" row: nobody watches it. */
export interface ScheduledWork {
  cron: string;
  run(prisma: PrismaClient, now: Date, tools: Omit<JobTools, "reportProgress">): Promise<void>;
}

/**
 * A module's jobs: the job types it adds (`enqueueJob`) and its work on a schedule. Modules export them through their
 * door and the composition root (src/app/module-wiring.ts) registers them with the engine (src/jobs/registry.ts): the
 * engine above the modules, the modules knowing only this contract below them.
 */
export interface ModuleJobs {
  handlers?: Record<string, JobHandler>;
  scheduled?: Record<string, ScheduledWork>;
}

/** Attempts of a job before it is failed for good (the first run and its retries). */
export const maxAttempts = 5;

/**
 * The engine's queue of every "Job" row; its job data is `{ jobId }`, and `traceparent` when tracing is on: the span
 * that queued it, which the job's span links to.
 */
export const jobQueue = "jobs";
/** The NOTIFY channel that wakes the engine's workers once a transaction that added jobs commits. */
export const jobsQueuedChannel = "jobs_queued";

/** The engine's client used to add jobs: never started, it only writes through the caller's transaction. */
let sender: Promise<PgBoss> | undefined;
function engineSender(): Promise<PgBoss> {
  // Imported on the first job added: the engine's module loads `pg`, which a PGlite process needs nowhere else.
  sender ??= import("pg-boss").then(
    ({ default: PgBoss }) =>
      new PgBoss({
        schema: engineSchema,
        db: {
          executeSql: () => Promise.reject(new Error("jobs are added through the caller's transaction")),
        },
      }),
  );
  return sender;
}

/** The engine's statements run on a Prisma transaction: JSON parameters as text, dates as ISO text, absent ones NULL. */
function transactionDb(tx: PrismaExecutor): PgBoss.Db {
  return {
    async executeSql(text, values) {
      const parameters = values.map((value) => {
        if (value === undefined) return null;
        if (value instanceof Date) return value.toISOString();
        return typeof value === "object" && value !== null ? JSON.stringify(value) : value;
      });
      return { rows: await tx.$queryRawUnsafe<unknown[]>(text, ...parameters) };
    },
  };
}

/**
 * Adds a job in the caller's transaction (`tx`): its "Job" row, the engine's job, and a NOTIFY that wakes the
 * workers of every instance when the transaction commits (not before: they would find nothing). `organizationId`
 * lets that organization's members watch it (GraphQL `jobProgress`, `jobUpdates`), and ranks it: an organization's
 * job comes after the jobs of other organizations that have fewer waiting (the engine takes the highest priority
 * first, then the oldest), so one organization's hundred jobs do not make another's first one wait behind them.
 */
export async function enqueueJob(
  tx: PrismaExecutor,
  type: string,
  payload: object,
  now: Date,
  organizationId?: string,
): Promise<Job> {
  const boss = await engineSender();
  const [queued] = organizationId
    ? await tx.$queryRaw<{ count: number }[]>`
        SELECT count(*)::int AS count FROM "Job"
        WHERE "organizationId" = ${organizationId} AND "status" IN ('pending', 'running')`
    : [];
  const job = await tx.job.create({
    data: { id: newId("Job"), type, payload, runAt: now, organizationId, createdAt: now, updatedAt: now },
  });
  // Before any engine started on this database its queue does not exist and `send` adds nothing: the first engine's
  // start hands the row over (`handOverWaitingRows`).
  await boss.send(
    jobQueue,
    { jobId: job.id, traceparent: currentTraceparent() },
    { db: transactionDb(tx), priority: -(queued?.count ?? 0) },
  );
  await tx.$executeRaw`SELECT pg_notify(${jobsQueuedChannel}, ${job.id})`;
  return job;
}

/**
 * Hands "Job" rows waiting with no engine job (added before the engine ran them: the upgrade from the polling
 * runner) to the engine. The advisory lock keeps two instances starting together from handing a row over twice.
 */
export async function handOverWaitingRows(prisma: PrismaClient): Promise<number> {
  const boss = await engineSender();
  return prisma.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('jobs-hand-over'))`;
    const rows = await tx.$queryRawUnsafe<{ id: string }[]>(
      `SELECT "id" FROM "Job" j
       WHERE j."status" IN ('pending', 'running')
         AND NOT EXISTS (SELECT 1 FROM ${engineSchema}.job e WHERE e.name = $1 AND e.data->>'jobId' = j."id")
       ORDER BY j."runAt", j."id"`,
      jobQueue,
    );
    if (rows.length === 0) return 0;
    await boss.insert(
      rows.map((row) => ({ name: jobQueue, data: { jobId: row.id } })),
      { db: transactionDb(tx) },
    );
    await tx.$executeRaw`UPDATE "Job" SET "status" = 'pending', "lockedUntil" = NULL WHERE "id" = ANY(${rows.map((row) => row.id)})`;
    await tx.$executeRaw`SELECT pg_notify(${jobsQueuedChannel}, id) FROM unnest(${rows.map((row) => row.id)}::text[]) id`;
    return rows.length;
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

/** Jobs per status, every status present (0 when none), for the queue-depth metric. */
export async function countJobsByStatus(sql: SqlReader): Promise<Record<string, number>> {
  const counts: Record<string, number> = { pending: 0, running: 0, done: 0, failed: 0 };
  const groups = await sql.rows<{ status: string; count: number }>(
    `SELECT status, count(*)::int AS count FROM "Job" GROUP BY status`,
  );
  for (const group of groups) counts[group.status] = group.count;
  return counts;
}
