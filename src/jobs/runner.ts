import type { Clock } from "../clock.ts";
import type { PrismaExecutor } from "../db/database.ts";
import type { Job, PrismaClient } from "../db/generated/client.ts";
import { newId } from "../ids.ts";
import type { Logger } from "../logger.ts";

/** What a job type does; `every` makes it recurring (rescheduled after each successful run). */
export interface JobHandler {
  run(prisma: PrismaClient, job: Job, now: Date): Promise<void>;
  every?: number;
}

export type JobHandlers = Record<string, JobHandler>;

export const maxAttempts = 5;
/** A claimed job not finished within this time (a crashed runner) is claimed again. */
const lockMs = 5 * 60 * 1000;

/** Retry delay after the n-th failed attempt: 30 s, 1 min, 2 min, ... capped at 1 h. */
export function backoffMs(attempts: number): number {
  return Math.min(30_000 * 2 ** (attempts - 1), 60 * 60 * 1000);
}

export function enqueueJob(prisma: PrismaExecutor, type: string, payload: object, runAt: Date): Promise<Job> {
  return prisma.job.create({ data: { id: newId("Job"), type, payload, runAt, createdAt: runAt, updatedAt: runAt } });
}

/** Makes sure a recurring job exists once (a fixed id per type), whatever the number of starts. */
export async function ensureRecurringJob(prisma: PrismaExecutor, type: string, now: Date): Promise<void> {
  await prisma.job.createMany({
    data: [{ id: `job_recurring_${type}`, type, runAt: now, createdAt: now, updatedAt: now }],
    skipDuplicates: true,
  });
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

async function finishJob(prisma: PrismaClient, job: Job, handler: JobHandler | undefined, now: Date, error?: unknown) {
  if (error === undefined && handler?.every) {
    await prisma.job.update({
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
    return;
  }
  if (error === undefined) {
    await prisma.job.update({ where: { id: job.id }, data: { status: "done", lockedUntil: null, updatedAt: now } });
    return;
  }
  const lastError = error instanceof Error ? error.message : String(error);
  const retry = job.attempts < maxAttempts;
  await prisma.job.update({
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

/** Runs every job due at `clock.now()`, one at a time; returns how many ran. Tests call it with their clock. */
export async function runDueJobs(
  prisma: PrismaClient,
  clock: Clock,
  handlers: JobHandlers,
  logger?: Logger,
): Promise<number> {
  let ran = 0;
  for (;;) {
    const now = clock.now();
    const job = await claimJob(prisma, now);
    if (!job) return ran;
    ran += 1;
    const handler = handlers[job.type];
    try {
      if (!handler) throw new Error(`No handler for job type ${job.type}`);
      await handler.run(prisma, job, now);
      await finishJob(prisma, job, handler, clock.now());
    } catch (error) {
      logger?.warn("job failed", { jobId: job.id, type: job.type, attempts: job.attempts, error: String(error) });
      await finishJob(prisma, job, handler, clock.now(), error);
    }
  }
}

/** Jobs per status, every status present (0 when none), for the queue-depth metric. */
export async function countJobsByStatus(prisma: PrismaClient): Promise<Record<string, number>> {
  const counts: Record<string, number> = { pending: 0, running: 0, done: 0, failed: 0 };
  const groups = await prisma.job.groupBy({ by: ["status"], _count: { _all: true } });
  for (const group of groups) counts[group.status] = group._count._all;
  return counts;
}
