import { monitorEventLoopDelay } from "node:perf_hooks";
import { setImmediate, setTimeout } from "node:timers/promises";

/**
 * Runs `work` while measuring this process's event-loop delay (the app under test runs in it): the longest time a
 * timer waited past its due time, in milliseconds, is the longest the loop was held.
 */
export async function maxLoopDelayDuring<T>(work: () => Promise<T>): Promise<{ result: T; maxDelayMs: number }> {
  const resolution = 10;
  const histogram = monitorEventLoopDelay({ resolution });
  histogram.enable();
  try {
    // The monitor's first tick only starts its clock: a hold before its second tick would go unrecorded.
    while (histogram.count === 0) await setTimeout(resolution);
    const result = await work();
    // The monitor records a hold when its timer next fires: work that settles in promise callbacks alone (PGlite's
    // statements do) may hold the loop and finish before that. Two turns of the loop have a timers phase between them.
    await setImmediate();
    await setImmediate();
    return { result, maxDelayMs: histogram.max / 1e6 };
  } finally {
    histogram.disable();
  }
}
