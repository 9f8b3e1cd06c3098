import { MessageChannel } from "node:worker_threads";
import Piscina from "piscina";

/*
 * A pool of worker threads for work that would hold the event loop (markdown conversion, PDF rendering, the
 * background jobs' parsing), run from one worker file (heavy-work.worker.ts). Each job has a time budget counted
 * from the moment a worker starts it (not while it waits in the queue): past it the worker is terminated and the
 * job fails with `WorkTimeoutError`. A thread's heap is capped (`memoryMb`): a job past it ends its thread and
 * fails with `WorkOutOfMemoryError`. Jobs beyond the threads and the queue fail at once with `PoolSaturatedError`.
 */

export interface WorkerPoolOptions {
  threads: number;
  /** Jobs that may wait for a thread; past threads + queue, jobs are refused. */
  queue: number;
  timeoutMs: number;
  /** The old generation of each thread's heap, in MiB (`resourceLimits.maxOldGenerationSizeMb`). */
  memoryMb: number;
  /** A thread's error outside any job (piscina's `error` event, which would otherwise end the process). */
  onError(error: unknown): void;
}

export class WorkTimeoutError extends Error {}
export class WorkOutOfMemoryError extends Error {}
export class PoolSaturatedError extends Error {}

/**
 * What a worker answers: its result, or the message of the client error it refused the input with; `tooLarge`
 * when the refusal is for the size of what the input converts to (the same input always is).
 */
export type WorkerAnswer<T> = { ok: true; value: T } | { ok: false; refused: string; tooLarge?: boolean };

/** A converted text and the size of its JSON, what the conversion cache counts. */
export interface Sized<T> {
  value: T;
  bytes: number;
}

interface RunOptions {
  /** Another time budget than the pool's. */
  timeoutMs?: number;
  /** Ends the job (its thread is terminated) when aborted: a job that ran out of time, an engine stopping. */
  signal?: AbortSignal;
}

export interface WorkerPool {
  /** Runs the worker's job `task` on `input`. */
  run<T>(task: string, input: unknown, options?: RunOptions): Promise<WorkerAnswer<T>>;
  close(): Promise<void>;
}

/**
 * The worker file next to this module: dist/heavy-work.worker.js beside the bundle's dist/main.js, or, from the
 * TypeScript source, the entry that loads it through tsx (source-worker.mjs).
 */
const workerFile = new URL(
  import.meta.url.endsWith(".ts") ? "../app/source-worker.mjs" : "./heavy-work.worker.js",
  import.meta.url,
).href;

export function createWorkerPool(options: WorkerPoolOptions): WorkerPool {
  const piscina = new Piscina({
    filename: workerFile,
    minThreads: 0,
    maxThreads: options.threads,
    // Idle workers exit, and with them the memory a big job left in their heap.
    idleTimeout: 30_000,
    resourceLimits: { maxOldGenerationSizeMb: options.memoryMb },
  });
  piscina.on("error", options.onError);
  // Jobs wait here, not in piscina's queue: a queued task did not reach the thread started after a terminated one.
  let running = 0;
  const waiting: (() => void)[] = [];
  const acquire = async () => {
    if (running + waiting.length >= options.threads + options.queue) {
      throw new PoolSaturatedError("Every worker is busy and the queue is full");
    }
    if (running < options.threads) running++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
  };
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };
  return {
    async run<T>(task: string, input: unknown, { timeoutMs = options.timeoutMs, signal }: RunOptions = {}) {
      signal?.throwIfAborted();
      await acquire();
      // The worker says when it starts the job (over a port of the job's own): the budget counts from there.
      const { port1, port2 } = new MessageChannel();
      const timeout = new AbortController();
      let timer: NodeJS.Timeout | undefined;
      port1.once("message", () => {
        timer = setTimeout(() => timeout.abort(), timeoutMs);
      });
      const abort = signal ? AbortSignal.any([timeout.signal, signal]) : timeout.signal;
      try {
        return (await piscina.run(
          { task, input, started: port2 },
          { signal: abort, transferList: [port2] },
        )) as WorkerAnswer<T>;
      } catch (error) {
        if (timeout.signal.aborted) throw new WorkTimeoutError(`The job took more than ${timeoutMs} ms`);
        if (signal?.aborted) throw signal.reason;
        if ((error as { code?: unknown }).code === "ERR_WORKER_OUT_OF_MEMORY") {
          throw new WorkOutOfMemoryError(`The job needed more than the ${options.memoryMb} MiB of memory allowed`);
        }
        throw error;
      } finally {
        clearTimeout(timer);
        port1.close();
        release();
      }
    },
    close: () => piscina.destroy(),
  };
}
