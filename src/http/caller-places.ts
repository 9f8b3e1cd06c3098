/**
 * Places per caller (a user, or a client address without a token): how many of its requests run at once. Load
 * shedding (load-shedding.ts) counts every request alike, so one caller flooding the process took the places of
 * everyone else. With a small share per caller, a flood runs a few requests at a time and every other caller's
 * requests interleave with those few, not with all of the flood's.
 *
 * A request past its caller's share waits for one of its places, in turn, for a short while, and is refused only then
 * (or at once past the waiting bounds). Refused at once, a flooding client sends its next request at once too: the
 * process then spends its time refusing, and every other caller waits behind the refusals. Waiting, a flooding
 * connection costs nothing until its turn, and a front end's parallel requests are answered in turn, not refused.
 */
export interface CallerPlaces {
  /** A place for `caller`, to give back with `release` once its request is answered; undefined when it has none free. */
  take(caller: string): Place | undefined;
  /**
   * Waits for a place of `caller` in turn, for at most the configured time; undefined when none came, or at once when
   * the caller already has as many requests or bytes of bodies waiting as it may.
   */
  wait(caller: string, bodyBytes: number): Promise<Place | undefined>;
  /** Requests waiting now, of all callers. */
  waiting(): number;
}

/** Requests of one caller waiting for its places, and the bytes of their bodies, at most: past them, 429 at once. */
const maxWaitingPerCaller = 64;
const maxWaitingBodyBytesPerCaller = 8 * 1024 * 1024;
/** Entries the map holds, at least, before one pass drops those of callers with nothing in flight or waiting. */
const entriesBeforeDroppingIdle = 1024;

export interface Place {
  release(): void;
}

export interface CallerPlacesOptions {
  /** Places per caller; 0: no limit. */
  perCaller: number;
  /** How long a request waits for a place of its caller; 0: refused at once. */
  waitMs: number;
  /** Requests of one caller waiting at once, at most (64 unless set). */
  maxWaiting?: number;
  /** Bytes of request bodies of one caller waiting at once, at most (8 MiB unless set). */
  maxWaitingBytes?: number;
}

interface Waiter {
  bodyBytes: number;
  handOver(place: Place): void;
}

interface CallerState {
  taken: number;
  waiting: Waiter[];
  waitingBytes: number;
}

export function createCallerPlaces({
  perCaller,
  waitMs,
  maxWaiting = maxWaitingPerCaller,
  maxWaitingBytes = maxWaitingBodyBytesPerCaller,
}: CallerPlacesOptions): CallerPlaces {
  // A caller's entry stays when its last request ends, and idle entries go together once there are many: deleting
  // the entry of a long-lived Map and adding it back, request after request, made V8 allocate a new table for it in
  // the old generation each time (~60 bytes of old-space garbage per request, filling it towards a full collection).
  const callers = new Map<string, CallerState>();
  let waiting = 0;
  // Twice what the last pass kept: with that many callers busy at once, a pass per new caller would cost them all.
  let dropIdleAt = entriesBeforeDroppingIdle;

  function dropIdleCallers() {
    for (const [caller, state] of callers) {
      if (state.taken === 0 && state.waiting.length === 0) callers.delete(caller);
    }
    dropIdleAt = Math.max(entriesBeforeDroppingIdle, 2 * callers.size);
  }

  function placeOf(caller: string, state: CallerState): Place {
    let released = false;
    return {
      release() {
        if (released) return;
        released = true;
        const next = state.waiting.shift();
        if (next) {
          // The place goes to the first waiting request as it is: the caller's count does not change.
          state.waitingBytes -= next.bodyBytes;
          waiting -= 1;
          next.handOver(placeOf(caller, state));
          return;
        }
        state.taken -= 1;
      },
    };
  }

  return {
    take(caller) {
      if (perCaller <= 0) return { release() {} };
      let state = callers.get(caller);
      if (!state) {
        if (callers.size >= dropIdleAt) dropIdleCallers();
        state = { taken: 0, waiting: [], waitingBytes: 0 };
        callers.set(caller, state);
      }
      if (state.taken >= perCaller) return undefined;
      state.taken += 1;
      return placeOf(caller, state);
    },
    wait(caller, bodyBytes) {
      const state = callers.get(caller);
      if (
        !state ||
        waitMs <= 0 ||
        state.waiting.length >= maxWaiting ||
        state.waitingBytes + bodyBytes > maxWaitingBytes
      ) {
        return Promise.resolve(undefined);
      }
      return new Promise((resolve) => {
        const waiter: Waiter = {
          bodyBytes,
          handOver(place) {
            clearTimeout(timer);
            resolve(place);
          },
        };
        const timer = setTimeout(() => {
          const index = state.waiting.indexOf(waiter);
          if (index >= 0) {
            state.waiting.splice(index, 1);
            state.waitingBytes -= bodyBytes;
            waiting -= 1;
          }
          resolve(undefined);
        }, waitMs);
        state.waiting.push(waiter);
        state.waitingBytes += bodyBytes;
        waiting += 1;
      });
    },
    waiting: () => waiting,
  };
}
