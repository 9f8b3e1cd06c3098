import { MessageChannel } from "node:worker_threads";
import Piscina from "piscina";

/*
 * A pool of worker threads for work that would hold the event loop (markdown conversion, PDF rendering), run from
 * one worker file (heavy-work.worker.ts). Each job has a time budget counted from the moment a worker starts it
 * (not while it waits in the queue): past it the worker is terminated and the job fails with `WorkTimeoutError`.
 * Jobs beyond the threads and the queue fail at once with `PoolSaturatedError`.
 */

export interface WorkerPoolOptions {
  threads: number;
  /** Jobs that may wait for a thread; past threads + queue, jobs are refused. */
  queue: number;
  timeoutMs: number;
  /** A thread's error outside any job (piscina's `error` event, which would otherwise end the process). */
  onError(error: unknown): void;
}

export class WorkTimeoutError extends Error {}
export class PoolSaturatedError extends Error {}

/** What a worker answers: its result, or the message of the client error it refused the input with. */
export type WorkerAnswer<T> = { ok: true; value: T } | { ok: false; refused: string };

export interface WorkerPool {
  /** Runs the worker's job `task` on `input`. */
  run<T>(task: string, input: unknown): Promise<WorkerAnswer<T>>;
  close(): Promise<void>;
}

/**
 * The worker file next to this module: dist/heavy-work.worker.js beside the bundle's dist/main.js, or, from the
 * TypeScript source, the entry that loads it through tsx (source-worker.mjs).
 */
const workerFile = new URL(
  import.meta.url.endsWith(".ts") ? "./source-worker.mjs" : "./heavy-work.worker.js",
  import.meta.url,
).href;

export function createWorkerPool(options: WorkerPoolOptions): WorkerPool {
  const piscina = new Piscina({
    filename: workerFile,
    minThreads: 0,
    maxThreads: options.threads,
    // Idle workers exit, and with them the memory a big job left in their heap.
    idleTimeout: 30_000,
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
    async run<T>(task: string, input: unknown) {
      await acquire();
      // The worker says when it starts the job (over a port of the job's own): the budget counts from there.
      const { port1, port2 } = new MessageChannel();
      const abort = new AbortController();
      let timer: NodeJS.Timeout | undefined;
      port1.once("message", () => {
        timer = setTimeout(() => abort.abort(), options.timeoutMs);
      });
      try {
        return (await piscina.run(
          { task, input, started: port2 },
          { signal: abort.signal, transferList: [port2] },
        )) as WorkerAnswer<T>;
      } catch (error) {
        if (abort.signal.aborted) throw new WorkTimeoutError(`The job took more than ${options.timeoutMs} ms`);
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
