import { monitorEventLoopDelay } from "node:perf_hooks";

export interface LoadSheddingOptions {
  /** Requests being handled at once past which new ones are refused; 0: no limit. */
  maxInFlight: number;
  /** Event-loop delay (ms, the largest of the last sampling period) past which new requests are refused; 0: off. */
  maxEventLoopDelayMs: number;
}

export interface LoadShedder {
  /**
   * Admits a request, or answers why not: the process is past a threshold, and a request queued behind the others
   * would wait longer than a client's retry. An admitted request must call `done` once answered.
   */
  admit(): Admission | { refused: string };
}

/** An admitted request's share of the requests in flight. */
export interface Admission {
  /** Answered: it leaves the requests in flight. */
  done(): void;
  /** Waiting its caller's turn (caller-places.ts), it runs nothing: it does not count meanwhile. */
  suspend(): void;
  resume(): void;
}

/** How often the event loop's delay is read: short enough to react within a few requests, long enough to be cheap. */
const samplingMs = 100;

/**
 * Load shedding: one process serves every request on one thread, so past its capacity a request only waits behind
 * the others, and every client waits longer. Past either threshold (requests in flight, or the event loop's delay,
 * which grows with the work queued in each turn) a request is refused at once (503 with Retry-After), so the
 * requests admitted keep a bounded latency and the excess learns it quickly instead of timing out.
 */
export function createLoadShedder({ maxInFlight, maxEventLoopDelayMs }: LoadSheddingOptions): LoadShedder {
  let inFlight = 0;
  let recentDelayMs = 0;
  if (maxEventLoopDelayMs > 0) {
    const monitor = monitorEventLoopDelay({ resolution: 10 });
    monitor.enable();
    let sampledAt = performance.now();
    // Sampling alone must not keep the process alive.
    setInterval(() => {
      // The sampler's own lateness counts too: right after a long block it is known before the monitor's timer,
      // which may run later in the same turn, has recorded it.
      const now = performance.now();
      recentDelayMs = Math.max(monitor.max / 1e6, now - sampledAt - samplingMs);
      sampledAt = now;
      monitor.reset();
    }, samplingMs).unref();
  }
  return {
    admit() {
      if (maxInFlight > 0 && inFlight >= maxInFlight) return { refused: `${inFlight} requests in flight` };
      if (maxEventLoopDelayMs > 0 && recentDelayMs > maxEventLoopDelayMs) {
        return { refused: `event loop delayed ${Math.round(recentDelayMs)} ms` };
      }
      inFlight++;
      let counted = true;
      let answered = false;
      return {
        done() {
          if (answered) return;
          answered = true;
          if (counted) inFlight--;
          counted = false;
        },
        suspend() {
          if (!counted) return;
          counted = false;
          inFlight--;
        },
        resume() {
          if (counted || answered) return;
          counted = true;
          inFlight++;
        },
      };
    },
  };
}
