import { monitorEventLoopDelay } from "node:perf_hooks";

/**
 * Runs `work` while measuring this process's event-loop delay (the app under test runs in it): the longest time a
 * timer waited past its due time, in milliseconds, is the longest the loop was held.
 */
export async function maxLoopDelayDuring<T>(work: () => Promise<T>): Promise<{ result: T; maxDelayMs: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  try {
    const result = await work();
    return { result, maxDelayMs: histogram.max / 1e6 };
  } finally {
    histogram.disable();
  }
}
