import { setImmediate } from "node:timers/promises";
import { InvalidInputError } from "../lib/errors.ts";
import { ConvertedTooLargeError } from "../lib/markdown/output-bound.ts";
import type { Config } from "../platform/config.ts";
import { createWorkerPool, type WorkerPool } from "./pool.ts";

/*
 * The heavy work of background jobs (an OpenAPI spec's parsing and dereferencing, a translation's markdown, a Git
 * import's SUMMARY.md and links) on worker threads, so a job never holds the event loop (inputs up to 1 KiB are
 * parsed on it, one at a time, as conversions are): each piece under a deadline
 * (`JOB_WORK_TIMEOUT_MS`, and the job's own signal) that terminates its thread, and a heap of `WORKER_MEMORY_MB`.
 * Jobs run outside requests and have no app to ask for a pool: the pool is the process's, made on first use; its
 * threads exit when idle (and are unreferenced meanwhile), so it holds nothing open.
 */

/** A job's work the worker refused (a client error of the content, e.g. a page converting past its bound). */
export class JobWorkRefusedError extends Error {
  constructor(
    message: string,
    readonly tooLarge: boolean,
  ) {
    super(message);
  }
}

const pools = new Map<string, WorkerPool>();

/** One pool per thread count and memory (tests change them; the deadline is given per run); a job waits its turn. */
function poolFor(config: Config): WorkerPool {
  const key = `${config.jobConcurrency}:${config.workerMemoryMb}`;
  let pool = pools.get(key);
  if (!pool) {
    pool = createWorkerPool({
      threads: config.jobConcurrency,
      // At most one piece of work per running job: the queue only takes what a second engine in the process adds.
      queue: config.jobConcurrency * 4,
      timeoutMs: config.jobWorkTimeoutMs,
      memoryMb: config.workerMemoryMb,
      // A thread's failure outside a job: the job's own failure reaches it through its run.
      onError: (error) => process.emitWarning(`job worker thread error: ${String(error)}`),
    });
    pools.set(key, pool);
  }
  return pool;
}

/**
 * Inputs up to this many bytes are worked on the calling thread, as conversions are (src/workers/heavy-work.ts):
 * a worker's round trip costs more than their parsing, and a thread's start from the sources seconds.
 */
const inlineBytes = 1024;

/** The same work on the calling thread, for an input of `bytes` up to `inlineBytes`. */
interface InlineWork<T> {
  bytes: number;
  run(): T | Promise<T>;
}

async function runInline<T>(work: InlineWork<T>): Promise<T> {
  try {
    return await work.run();
  } catch (error) {
    if (error instanceof ConvertedTooLargeError) throw new JobWorkRefusedError(error.message, true);
    if (error instanceof InvalidInputError) throw new JobWorkRefusedError(error.message, false);
    throw error;
  }
}

/**
 * Runs the worker's `task` on `input` for a job (or `inline` on this thread when its input is small): its result,
 * or `WorkTimeoutError` past `JOB_WORK_TIMEOUT_MS`, `WorkOutOfMemoryError` past `WORKER_MEMORY_MB`,
 * `JobWorkRefusedError` when the content is refused, the signal's reason when the job is aborted.
 */
export async function runJobWork<T>(
  config: Config,
  task: string,
  input: unknown,
  signal: AbortSignal,
  inline?: InlineWork<T>,
): Promise<T> {
  if (inline && inline.bytes <= inlineBytes) return runInline(inline);
  const answer = await poolFor(config).run<T>(task, input, { timeoutMs: config.jobWorkTimeoutMs, signal });
  if (!answer.ok) throw new JobWorkRefusedError(answer.refused, answer.tooLarge ?? false);
  return answer.value;
}

/**
 * `inline` of each text for a job, in order: texts up to 1 KiB on this thread with a turn of the event loop before
 * each (so many small pages never hold it long), the larger ones together in one worker job (`task`, whose input
 * is `{ texts, maxBytes }`, `maxBytes` the bound on what a text converts to).
 */
export async function mapTextsForJob<T>(
  config: Config,
  task: "page-links" | "prose-segments",
  texts: readonly string[],
  signal: AbortSignal,
  inline: (text: string) => T,
): Promise<T[]> {
  const results: T[] = [];
  const large: number[] = [];
  for (const [index, text] of texts.entries()) {
    if (Buffer.byteLength(text) > inlineBytes) {
      large.push(index);
      continue;
    }
    await setImmediate();
    results[index] = await runInline({ bytes: 0, run: () => inline(text) });
  }
  if (large.length > 0) {
    const input = { texts: large.map((index) => texts[index]), maxBytes: config.maxConvertedBytes };
    const answers = await runJobWork<T[]>(config, task, input, signal);
    for (const [position, index] of large.entries()) results[index] = answers[position] as T;
  }
  return results;
}
