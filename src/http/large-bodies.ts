/**
 * Turns for receiving large request bodies, one at a time in the process. A megabyte arriving is cheap alone, but
 * sixteen arriving at once (eight people sending `nodes(ids:)` floods on two connections each) held as many
 * megabytes of chunks and copies in flight: the collector ran for them in every turn of the event loop, and another
 * person's small read waited 0.6 s. Received in turn, the same flood is received at the same rate (the process's
 * single thread could never receive two at once anyway), with one body's memory in flight, and small requests pass
 * between its chunks (docs/performance.md, "Abuse and overload").
 *
 * A body that arrives slower than `minBytesPerSecond` gives its turn up and goes on arriving without one: a slow
 * body costs little a second, and must not hold the others back. Callers take turns with each other, so one
 * caller's many bodies do not queue ahead of another's; a body that waited `waitMs` is refused.
 */
export interface LargeBodyTurns {
  /**
   * The turn of a large body of `caller` whose size is `bytes` at most, once no other large body is arriving;
   * undefined when it did not come within the wait, or `abandoned` fired first (the client went away while it
   * waited). Release it once the body has arrived.
   */
  take(caller: string, bytes: number, abandoned?: AbortSignal): Promise<BodyTurn | undefined>;
  /** Large bodies waiting for their turn now. */
  waiting(): number;
}

export interface BodyTurn {
  release(): void;
}

export interface LargeBodyTurnOptions {
  /** How long a body waits for its turn before it is refused. */
  waitMs: number;
  /** The slowest a body may arrive and keep its turn: after `bytes / minBytesPerSecond` seconds it gives it up. */
  minBytesPerSecond: number;
  /** A turn lasts at least this long before a slow body gives it up, however small the body. */
  minTurnMs: number;
}

interface Waiter {
  bytes: number;
  handOver(turn: BodyTurn): void;
}

export function createLargeBodyTurns({ waitMs, minBytesPerSecond, minTurnMs }: LargeBodyTurnOptions): LargeBodyTurns {
  let arriving = false;
  // Waiting bodies by caller, in the order the callers came; a caller served goes to the back of the line.
  const lines = new Map<string, Waiter[]>();
  let waitingCount = 0;

  function grant(bytes: number): BodyTurn {
    arriving = true;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      clearTimeout(slowBody);
      handOn();
    };
    const slowBody = setTimeout(release, Math.max(minTurnMs, (bytes / minBytesPerSecond) * 1000));
    return { release };
  }

  function handOn() {
    for (const [caller, waiters] of lines) {
      const next = waiters.shift() as Waiter;
      lines.delete(caller);
      if (waiters.length > 0) lines.set(caller, waiters);
      waitingCount--;
      next.handOver(grant(next.bytes));
      return;
    }
    arriving = false;
  }

  function leaveLine(caller: string, waiter: Waiter) {
    const waiters = lines.get(caller) ?? [];
    const index = waiters.indexOf(waiter);
    if (index < 0) return;
    waiters.splice(index, 1);
    if (waiters.length === 0) lines.delete(caller);
    waitingCount--;
  }

  return {
    take(caller, bytes, abandoned) {
      if (abandoned?.aborted) return Promise.resolve(undefined);
      if (!arriving) return Promise.resolve(grant(bytes));
      return new Promise((resolve) => {
        const waiter: Waiter = {
          bytes,
          handOver(turn) {
            clearTimeout(givingUp);
            abandoned?.removeEventListener("abort", giveUp);
            resolve(turn);
          },
        };
        const giveUp = () => {
          clearTimeout(givingUp);
          abandoned?.removeEventListener("abort", giveUp);
          leaveLine(caller, waiter);
          resolve(undefined);
        };
        const givingUp = setTimeout(giveUp, waitMs);
        // A client gone while it waited would otherwise be handed a turn its body never uses.
        abandoned?.addEventListener("abort", giveUp, { once: true });
        const waiters = lines.get(caller);
        if (waiters) waiters.push(waiter);
        else lines.set(caller, [waiter]);
        waitingCount++;
      });
    },
    waiting: () => waitingCount,
  };
}
