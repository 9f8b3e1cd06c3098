// Job start latency: from the end of the transaction that adds a job (before its COMMIT is sent, so the figure is an
// upper bound of commit to handler start) to the start of the job's handler, on PostgreSQL and on PGlite, with the
// engine as a server runs it (src/jobs/engine.ts). `npm run bench:jobs` (BENCH_DATABASE_URL: the server, default
// local; BENCH_JOBS: jobs per database, default 200). Last, the same for another organization's jobs while one
// organization's 40 jobs hang (issue 52, attack 6: each organization runs JOB_CONCURRENCY_PER_ORGANIZATION at once).
import { performance } from "node:perf_hooks";
import { type Database, openDatabase } from "../../src/db/database.ts";
import { applyMigrations } from "../../src/db/migrate.ts";
import { startEventBus } from "../../src/events/bus.ts";
import { startJobEngine } from "../../src/jobs/engine.ts";
import { enqueueJob, jobsQueuedChannel } from "../../src/jobs/queue.ts";
import { defineJob } from "../../src/jobs/registry.ts";
import { systemClock } from "../../src/platform/clock.ts";
import { loadConfig } from "../../src/platform/config.ts";
import { createLogger } from "../../src/platform/logger.ts";
import { createScratchDatabase } from "../helpers/database.ts";

const serverUrl = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const jobs = Number(process.env.BENCH_JOBS ?? 200);
/** Jobs added at once in the burst round: more than the workers, so some wait for one. */
const burst = 20;
/** Jobs of the flooding organization, which hang until the round ends, and the other's jobs timed meanwhile. */
const flood = 40;
const underFlood = 20;

/** Handler starts by job id, and who waits for each; when this process heard each job's NOTIFY. */
const started = new Map<string, number>();
const notified = new Map<string, number>();
const waiting = new Map<string, () => void>();
defineJob("bench-start", {
  run: async (_prisma, job) => {
    started.set(job.id, performance.now());
    waiting.get(job.id)?.();
  },
});

/** The flood's handlers hang until released; `hanging` counts those started. */
let releaseFlood: () => void = () => {};
let floodReleased = new Promise<void>((resolve) => {
  releaseFlood = resolve;
});
let hanging = 0;
let onHang = () => {};
defineJob("bench-hang", {
  run: async (_prisma, _job, _now, { signal }) => {
    hanging += 1;
    onHang();
    await Promise.race([floodReleased, new Promise((resolve) => signal.addEventListener("abort", resolve))]);
  },
});

function startOf(jobId: string): Promise<number> {
  const at = started.get(jobId);
  if (at !== undefined) return Promise.resolve(at);
  return new Promise((resolve) => waiting.set(jobId, () => resolve(started.get(jobId) as number)));
}

/** Adds one job in a transaction; resolves with its id and the time its transaction's work ended. */
async function addJob(
  db: Database,
  type = "bench-start",
  organizationId?: string,
): Promise<{ id: string; committing: number }> {
  let committing = 0;
  const job = await db.prisma.$transaction(async (tx) => {
    const added = await enqueueJob(tx, type, {}, new Date(), organizationId);
    committing = performance.now();
    return added;
  });
  return { id: job.id, committing };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p) - 1)] as number;
}

function summary(label: string, latencies: number[]): string {
  const sorted = [...latencies].sort((a, b) => a - b);
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  return `${label.padEnd(28)} n=${sorted.length}  p50 ${ms(percentile(sorted, 0.5))}  p99 ${ms(percentile(sorted, 0.99))}  max ${ms(sorted.at(-1) as number)}`;
}

async function measure(kind: string, db: Database): Promise<void> {
  await applyMigrations(db);
  const logger = createLogger("silent");
  const events = await startEventBus(db, logger);
  const config = loadConfig({ NODE_ENV: "test", LOG_LEVEL: "silent", SECRETS_KEY: "0".repeat(64) });
  const engine = await startJobEngine({ db, clock: systemClock, config, logger, events });
  const listening = await db.listen(jobsQueuedChannel, (jobId) => notified.set(jobId, performance.now()));
  try {
    // Warm-up: Prisma's query engine and the first statements' plans.
    for (let index = 0; index < 10; index++) await startOf((await addJob(db)).id);
    const oneAtATime: number[] = [];
    const added: { id: string; committing: number }[] = [];
    for (let index = 0; index < jobs; index++) {
      const job = await addJob(db);
      added.push(job);
      oneAtATime.push((await startOf(job.id)) - job.committing);
    }
    // Read once every job ran: this listener may hear a NOTIFY after the engine's has started the job.
    const toNotify = added.map(({ id, committing }) => (notified.get(id) ?? Number.POSITIVE_INFINITY) - committing);
    const bursts: number[] = [];
    for (let round = 0; round < Math.max(1, Math.floor(jobs / burst)); round++) {
      const added = await Promise.all(Array.from({ length: burst }, () => addJob(db)));
      for (const { id, committing } of added) bursts.push((await startOf(id)) - committing);
    }
    // One organization's flood holds its share of the workers; another organization's jobs, one at a time.
    const flooding = new Promise<void>((resolve) => {
      onHang = () => {
        if (hanging >= config.jobConcurrencyPerOrganization) resolve();
      };
    });
    for (let index = 0; index < flood; index++) await addJob(db, "bench-hang", `flooder-${kind}`);
    await flooding;
    const besideFlood: number[] = [];
    for (let index = 0; index < underFlood; index++) {
      const job = await addJob(db, "bench-start", `other-${kind}`);
      besideFlood.push((await startOf(job.id)) - job.committing);
    }
    const hungAtOnce = hanging;
    releaseFlood();
    console.log(summary(`${kind}, one at a time`, oneAtATime));
    console.log(summary(`${kind}, its NOTIFY heard`, toNotify));
    console.log(summary(`${kind}, ${burst} at once`, bursts));
    console.log(`${summary(`${kind}, beside a flood of ${flood}`, besideFlood)}  (flood jobs running: ${hungAtOnce})`);
  } finally {
    releaseFlood();
    await listening.close();
    await engine.stop();
    await events.close();
    hanging = 0;
    floodReleased = new Promise<void>((resolve) => {
      releaseFlood = resolve;
    });
  }
}

const scratch = await createScratchDatabase(serverUrl);
const postgres = await openDatabase({ kind: "postgres", url: scratch.url });
try {
  await measure("PostgreSQL", postgres);
} finally {
  await postgres.close();
  await scratch.drop();
}
const pglite = await openDatabase({ kind: "pglite", dataDir: "memory://" });
try {
  await measure("PGlite", pglite);
} finally {
  await pglite.close();
}
process.exit(0);
