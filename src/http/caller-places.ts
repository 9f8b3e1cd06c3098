/**
 * Places in flight per caller (a user, or a client address without a token). Load shedding (load-shedding.ts) counts
 * every request alike, so one caller flooding the process took the places of everyone else, and a second user's
 * requests were refused with the flood's. With a share per caller, the flood is refused beyond its own places and
 * other callers keep being served. Browsers open at most 6 connections to an origin, so a front end stays within a
 * share of that size.
 */
export interface CallerPlaces {
  /** A place for `caller`, to give back with `release` once its request is answered; undefined when it has none left. */
  take(caller: string): { release(): void } | undefined;
}

/** `perCaller` places each; 0: no limit. */
export function createCallerPlaces(perCaller: number): CallerPlaces {
  const inFlight = new Map<string, number>();
  return {
    take(caller) {
      if (perCaller <= 0) return { release() {} };
      const taken = inFlight.get(caller) ?? 0;
      if (taken >= perCaller) return undefined;
      inFlight.set(caller, taken + 1);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          const left = (inFlight.get(caller) ?? 1) - 1;
          // Callers with nothing in flight hold no entry: the map is as large as the callers being served.
          if (left === 0) inFlight.delete(caller);
          else inFlight.set(caller, left);
        },
      };
    },
  };
}
