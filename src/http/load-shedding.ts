import { monitorEventLoopDelay } from "node:perf_hooks";

export interface LoadSheddingOptions {
  /** Requests running at once past which a caller's new ones are refused while others run; 0: no limit. */
  maxInFlight: number;
  /** Event-loop delay (ms, the largest of the last sampling period) past which new requests are refused; 0: off. */
  maxEventLoopDelayMs: number;
  /** The event loop's recent delay in ms; sampled from this process's event loop unless given. */
  eventLoopDelayMs?: () => number;
}

export interface LoadShedder {
  /**
   * Admits a request of `caller` that is about to run (its body read, its caller's turn come), or answers why not.
   * Only contention is relieved: a request is refused only while other callers' requests run, so a lone client is
   * never refused, right after start or after its own slow request alike. While the event loop is delayed, a person
   * with a request running is refused another, and one with none is admitted. Callers without a token are refused
   * at half the thresholds, running or not, so an anonymous flood is shed before a person with a token waits. An
   * admitted request must call `done` once answered.
   */
  admit(caller: string, anonymous: boolean): Admission | { refused: string };
}

export interface Admission {
  /** Answered: it leaves the requests in flight. */
  done(): void;
}

const entriesBeforeDroppingIdle = 1024;

/** How often the event loop's delay is read: short enough to react within a few requests, long enough to be cheap. */
const samplingMs = 100;

/**
 * Load shedding: one process serves every request on one thread, so past its capacity a request only waits behind
 * the others, and every client waits longer. Past either threshold (requests running, or the event loop's delay,
 * which grows with the work queued in each turn) while several callers compete, a request is refused at once (503
 * with Retry-After), so the requests admitted keep a bounded latency and the excess learns it quickly instead of
 * timing out. A caller alone has nobody to yield to: its requests already run a few at a time (caller-places.ts).
 */
export function createLoadShedder({
  maxInFlight,
  maxEventLoopDelayMs,
  eventLoopDelayMs,
}: LoadSheddingOptions): LoadShedder {
  let inFlight = 0;
  const runningByCaller = new Map<string, number>();
  const recentDelayMs = eventLoopDelayMs ?? (maxEventLoopDelayMs > 0 ? sampleEventLoopDelay() : () => 0);

  // Idle callers' entries stay at 0 and go together past 1024: a long-lived Map's entry deleted and added back request
  // after request left old-space garbage each time (caller-places.ts).
  let dropIdleAt = entriesBeforeDroppingIdle;
  function dropIdleCallers() {
    for (const [caller, running] of runningByCaller) if (running === 0) runningByCaller.delete(caller);
    dropIdleAt = Math.max(entriesBeforeDroppingIdle, 2 * runningByCaller.size);
  }

  function refusal(caller: string, anonymous: boolean): string | undefined {
    const running = runningByCaller.get(caller) ?? 0;
    if (inFlight - running === 0) return undefined;
    const share = anonymous ? 0.5 : 1;
    if (maxInFlight > 0 && inFlight >= maxInFlight * share) return `${inFlight} requests in flight`;
    // The process is behind: the callers whose work is running wait for it, while a person with nothing running
    // still gets in (the requests in flight bound how many such), so a flood does not hold everyone else back.
    if (maxEventLoopDelayMs > 0 && (anonymous || running > 0)) {
      const delayMs = recentDelayMs();
      if (delayMs > maxEventLoopDelayMs * share) return `event loop delayed ${Math.round(delayMs)} ms`;
    }
    return undefined;
  }

  return {
    admit(caller, anonymous) {
      const refused = refusal(caller, anonymous);
      if (refused) return { refused };
      inFlight++;
      if (runningByCaller.size >= dropIdleAt && !runningByCaller.has(caller)) dropIdleCallers();
      runningByCaller.set(caller, (runningByCaller.get(caller) ?? 0) + 1);
      let answered = false;
      return {
        done() {
          if (answered) return;
          answered = true;
          inFlight--;
          runningByCaller.set(caller, (runningByCaller.get(caller) ?? 1) - 1);
        },
      };
    },
  };
}

/** The largest delay of this process's event loop in the last sampling period, kept up to date every 100 ms. */
function sampleEventLoopDelay(): () => number {
  let recentDelayMs = 0;
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
  return () => recentDelayMs;
}
