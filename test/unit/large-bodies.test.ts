import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type BodyTurn, createLargeBodyTurns } from "../../src/http/large-bodies.ts";

const options = { waitMs: 10_000, minBytesPerSecond: 1000, minTurnMs: 1000 };

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

/** Whether the promise has settled once the pending promise jobs ran. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => {
    done = true;
  });
  await vi.advanceTimersByTimeAsync(0);
  return done;
}

describe("turns of large bodies", () => {
  it("lets one body arrive at a time, the next once it is released", async () => {
    const turns = createLargeBodyTurns(options);
    const first = (await turns.take("user:a", 500)) as BodyTurn;
    const second = turns.take("user:b", 500);
    expect(await settled(second)).toBe(false);
    expect(turns.waiting()).toBe(1);
    first.release();
    expect(await second).toBeDefined();
    expect(turns.waiting()).toBe(0);
  });

  it("serves callers in turn: a caller's many bodies do not queue ahead of another's", async () => {
    const turns = createLargeBodyTurns(options);
    const granted: [string, BodyTurn][] = [];
    const first = (await turns.take("user:flood", 500)) as BodyTurn;
    for (const [caller, name] of [
      ["user:flood", "flood-1"],
      ["user:flood", "flood-2"],
      ["user:flood", "flood-3"],
      ["user:other", "other"],
    ] as const) {
      void turns.take(caller, 500).then((turn) => granted.push([name, turn as BodyTurn]));
    }
    first.release();
    for (let index = 0; index < 4; index++) {
      await vi.advanceTimersByTimeAsync(0);
      expect(granted).toHaveLength(index + 1);
      granted.at(-1)?.[1].release();
    }
    expect(granted.map(([name]) => name)).toEqual(["flood-1", "other", "flood-2", "flood-3"]);
  });

  it("takes the turn from a body slower than the slowest rate, and gives it to the next", async () => {
    const turns = createLargeBodyTurns(options);
    await turns.take("user:slow", 4000);
    const next = turns.take("user:b", 500);
    // 4,000 bytes at 1,000 a second: the slow body keeps its turn 4 s.
    await vi.advanceTimersByTimeAsync(3999);
    expect(await settled(next)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await next).toBeDefined();
  });

  it("keeps a small body's turn for the shortest turn at least", async () => {
    const turns = createLargeBodyTurns(options);
    await turns.take("user:slow", 10);
    const next = turns.take("user:b", 500);
    await vi.advanceTimersByTimeAsync(999);
    expect(await settled(next)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await next).toBeDefined();
  });

  it("answers undefined to a body that waited too long, and leaves the line", async () => {
    const turns = createLargeBodyTurns({ ...options, minTurnMs: 60_000 });
    const first = (await turns.take("user:a", 500)) as BodyTurn;
    const late = turns.take("user:b", 500);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(await late).toBeUndefined();
    expect(turns.waiting()).toBe(0);
    // Released twice, a turn is given back once: the next body gets it, and the one after waits.
    first.release();
    first.release();
    expect(await turns.take("user:c", 500)).toBeDefined();
    expect(await settled(turns.take("user:d", 500))).toBe(false);
  });

  it("drops a body whose client went away while it waited, and hands the turn past it", async () => {
    const turns = createLargeBodyTurns(options);
    const first = (await turns.take("user:a", 500)) as BodyTurn;
    const gone = new AbortController();
    const abandoned = turns.take("user:b", 500, gone.signal);
    const next = turns.take("user:c", 500);
    gone.abort();
    expect(await abandoned).toBeUndefined();
    expect(turns.waiting()).toBe(1);
    first.release();
    expect(await next).toBeDefined();
    const aborted = new AbortController();
    aborted.abort();
    expect(await turns.take("user:d", 500, aborted.signal)).toBeUndefined();
  });
});
