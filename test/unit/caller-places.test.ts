import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createCallerPlaces, type Place } from "../../src/http/caller-places.ts";
import { type Admission, createLoadShedder } from "../../src/http/load-shedding.ts";

const options = { perCaller: 2, waitMs: 1000, maxWaiting: 3, maxWaitingBytes: 1000 };

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

describe("places per caller", () => {
  it("gives a caller its share at once, and none past it", () => {
    const places = createCallerPlaces(options);
    expect(places.take("user:a")).toBeDefined();
    expect(places.take("user:a")).toBeDefined();
    expect(places.take("user:a")).toBeUndefined();
    expect(places.take("user:b")).toBeDefined();
  });

  it("hands a released place to the caller's first waiting request, in turn, never past the share", async () => {
    const places = createCallerPlaces(options);
    const first = places.take("user:a") as Place;
    const second = places.take("user:a") as Place;
    const order: string[] = [];
    const waiting = ["w1", "w2", "w3"].map((name) =>
      places.wait("user:a", 10).then((place) => {
        order.push(name);
        return place;
      }),
    );
    first.release();
    // Released twice, a place is given back once.
    first.release();
    await Promise.resolve();
    expect(order).toEqual(["w1"]);
    second.release();
    const w1 = (await waiting[0]) as Place;
    await waiting[1];
    expect(order).toEqual(["w1", "w2"]);
    // Two places taken (by w1 and w2): a new request finds none free, and the third still waits.
    expect(places.take("user:a")).toBeUndefined();
    w1.release();
    expect(await waiting[2]).toBeDefined();
    expect(order).toEqual(["w1", "w2", "w3"]);
  });

  it("refuses a wait past the time, past the waiting requests, or past the waiting bytes", async () => {
    const places = createCallerPlaces(options);
    places.take("user:a");
    places.take("user:a");
    const late = places.wait("user:a", 10);
    vi.advanceTimersByTime(1000);
    expect(await late).toBeUndefined();

    const held = [places.wait("user:a", 10), places.wait("user:a", 10), places.wait("user:a", 10)];
    expect(await places.wait("user:a", 10)).toBeUndefined();
    vi.advanceTimersByTime(1000);
    await Promise.all(held);

    const large = places.wait("user:a", 900);
    expect(await places.wait("user:a", 200)).toBeUndefined();
    vi.advanceTimersByTime(1000);
    expect(await large).toBeUndefined();
  });

  it("refuses at once when waiting is off, and gives places back once all are released", async () => {
    const places = createCallerPlaces({ ...options, waitMs: 0 });
    const taken = [places.take("user:a"), places.take("user:a")] as Place[];
    expect(await places.wait("user:a", 0)).toBeUndefined();
    for (const place of taken) place.release();
    expect(places.take("user:a")).toBeDefined();
    expect(places.take("user:a")).toBeDefined();
  });

  it("keeps the share of callers with requests in flight or waiting when the idle callers' entries are dropped", async () => {
    const places = createCallerPlaces(options);
    const held = [places.take("user:a"), places.take("user:a")] as Place[];
    const waiter = places.wait("user:a", 10);
    // Thousands of callers come and go (each a new entry; idle ones are dropped once there are many).
    for (let index = 0; index < 5000; index++) (places.take(`address:${index}`) as Place).release();
    // user:a still has its two places taken and its request waiting.
    expect(places.take("user:a")).toBeUndefined();
    expect(places.waiting()).toBe(1);
    (held[0] as Place).release();
    const handedOver = (await waiter) as Place;
    expect(handedOver).toBeDefined();
    expect(places.take("user:a")).toBeUndefined();
    handedOver.release();
    (held[1] as Place).release();
    // A caller back after its entry was dropped starts with its whole share.
    expect(places.take("address:0")).toBeDefined();
    expect(places.take("address:0")).toBeDefined();
    expect(places.take("address:0")).toBeUndefined();
  });

  it("keeps every busy caller's share when more callers than the idle bound are busy at once", () => {
    const places = createCallerPlaces(options);
    const busy = Array.from({ length: 3000 }, (_, index) => places.take(`address:${index}`) as Place);
    for (let index = 0; index < 3000; index++) {
      expect(places.take(`address:${index}`)).toBeDefined();
      expect(places.take(`address:${index}`)).toBeUndefined();
    }
    for (const place of busy) place.release();
  });

  it("has no limit when the share is 0", () => {
    const places = createCallerPlaces({ ...options, perCaller: 0 });
    for (let index = 0; index < 100; index++) expect(places.take("user:a")).toBeDefined();
  });
});

describe("requests in flight", () => {
  it("never refuse a caller alone, however many of its requests run", () => {
    const shedder = createLoadShedder({ maxInFlight: 2, maxEventLoopDelayMs: 0 });
    const admitted = Array.from({ length: 5 }, () => shedder.admit("user:a", false));
    for (const admission of admitted) expect("done" in admission).toBe(true);
  });

  it("refuse another caller past the limit while others run, and admit it once they are answered", () => {
    const shedder = createLoadShedder({ maxInFlight: 2, maxEventLoopDelayMs: 0 });
    const first = shedder.admit("user:a", false) as Admission;
    const second = shedder.admit("user:a", false) as Admission;
    expect(shedder.admit("user:b", false)).toEqual({ refused: "2 requests in flight" });
    first.done();
    second.done();
    // Answered twice changes nothing.
    first.done();
    const other = shedder.admit("user:b", false) as Admission;
    expect("done" in other).toBe(true);
    expect("done" in shedder.admit("user:a", false)).toBe(true);
  });

  it("refuse a caller without a token at half the limit while a person with a token runs", () => {
    const shedder = createLoadShedder({ maxInFlight: 4, maxEventLoopDelayMs: 0 });
    shedder.admit("user:a", false);
    shedder.admit("user:a", false);
    expect(shedder.admit("address:1.2.3.4", true)).toEqual({ refused: "2 requests in flight" });
    expect("done" in shedder.admit("user:b", false)).toBe(true);
  });
});

describe("shedding by the event loop's delay", () => {
  const delayed = (delayMs: number) =>
    createLoadShedder({ maxInFlight: 0, maxEventLoopDelayMs: 200, eventLoopDelayMs: () => delayMs });

  it("never refuses a caller alone, right after a long block (a start, its own slow request)", () => {
    const shedder = delayed(5000);
    for (let index = 0; index < 6; index++) expect("done" in shedder.admit("user:a", false)).toBe(true);
  });

  it("refuses a caller without a token at half the delay while a person runs, running or not", () => {
    const shedder = delayed(150);
    const running = shedder.admit("user:a", false) as Admission;
    expect("done" in shedder.admit("user:b", false)).toBe(true);
    expect(shedder.admit("address:1.2.3.4", true)).toEqual({ refused: "event loop delayed 150 ms" });
    running.done();
  });

  it("refuses a person another request while one of theirs runs and the loop is delayed, and admits one with none", () => {
    const shedder = delayed(250);
    shedder.admit("user:a", false);
    shedder.admit("user:b", false);
    // The flood's callers wait for their own work; a second person, nothing running, is served.
    expect(shedder.admit("user:a", false)).toEqual({ refused: "event loop delayed 250 ms" });
    expect(shedder.admit("user:b", false)).toEqual({ refused: "event loop delayed 250 ms" });
    expect("done" in shedder.admit("user:c", false)).toBe(true);
  });
});
