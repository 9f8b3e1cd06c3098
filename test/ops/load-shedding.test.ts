import { beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/platform/config.ts";
import { baseUrl, type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";

/*
 * Past its capacity, while several callers compete, a process refuses new requests at once (503, Retry-After)
 * instead of queueing them behind the others; a caller alone is never refused; health and metrics still answer.
 * One caller's requests run a few at a time, the others waiting their turn, so a flood leaves room for everyone else.
 */

let org: SeededOrganization;
let base: TestApp;

beforeAll(async () => {
  base = await startTestApp();
  org = await seedOrganization(base.db, "Busy");
});

interface Answer {
  status: number;
  retryAfter: string | null;
  body: unknown;
  /** When the answer came, in order of all answers of the burst. */
  order: number;
}

/** `count` requests sent at once (by the organization's reader); each answer notes its place among the answers. */
async function burst(t: TestApp, count: number, path = "/v1/orgs", token = org.members.read.token): Promise<Answer[]> {
  let answered = 0;
  return Promise.all(
    Array.from({ length: count }, async () => {
      const response = await t.app.fetch(
        new Request(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } }),
      );
      const order = answered++;
      return {
        status: response.status,
        retryAfter: response.headers.get("retry-after"),
        body: await response.json(),
        order,
      };
    }),
  );
}

describe("load shedding", () => {
  it("never refuses a caller alone past SHED_MAX_IN_FLIGHT, and refuses another caller with 503 meanwhile", async () => {
    const t = await startTestApp({
      db: base.db,
      // Each caller's requests all run at once here, so that one caller alone can pass the process's limit.
      env: { SHED_MAX_IN_FLIGHT: "4", SHED_MAX_IN_FLIGHT_PER_CALLER: "0" },
    });
    expect((await burst(t, 40)).map((answer) => answer.status)).toEqual(Array(40).fill(200));
    const [reader, admin] = await Promise.all([burst(t, 20), burst(t, 20, "/v1/orgs", org.members.admin.token)]);
    const answers = [...reader, ...admin];
    const refused = answers.filter((answer) => answer.status === 503);
    expect(refused.length).toBeGreaterThan(0);
    expect(answers.filter((answer) => answer.status === 200).length + refused.length).toBe(40);
    for (const answer of refused) {
      expect(answer.retryAfter).toBe("1");
      expect(answer.body).toEqual({ error: { code: 503, message: "The server is overloaded; retry shortly" } });
    }
    // Once they are answered, the next requests are admitted again.
    expect((await burst(t, 4)).map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
  });

  it("runs a caller's requests SHED_MAX_IN_FLIGHT_PER_CALLER at a time: a flood is served in turn, another person at once", async () => {
    const t = await startTestApp({ db: base.db, env: { SHED_MAX_IN_FLIGHT_PER_CALLER: "2" } });
    const [flood, other] = await Promise.all([burst(t, 30), burst(t, 2, "/v1/orgs", org.members.admin.token)]);
    // Nothing refused: past its two places, each request of the flood waited its turn.
    expect(flood.map((answer) => answer.status)).toEqual(Array(30).fill(200));
    // Another person's requests have places of their own: answered before the flood's last ones.
    expect(other.map((answer) => answer.status)).toEqual([200, 200]);
    expect(Math.max(...other.map((answer) => answer.order))).toBeLessThan(
      Math.max(...flood.map((answer) => answer.order)),
    );
    // Answered requests give their places back.
    expect((await burst(t, 2)).map((answer) => answer.status)).toEqual([200, 200]);
  });

  it("refuses a caller's requests with 429 once they waited SHED_CALLER_WAIT_MS, and at once when it is 0", async () => {
    const t = await startTestApp({
      db: base.db,
      env: { SHED_MAX_IN_FLIGHT_PER_CALLER: "1", SHED_CALLER_WAIT_MS: "0" },
    });
    const flood = await burst(t, 30);
    const refused = flood.filter((answer) => answer.status === 429);
    // Each request awaits the database, so the burst's requests overlap: one runs, the rest are refused at once.
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.length + flood.filter((answer) => answer.status === 200).length).toBe(30);
    for (const answer of refused) {
      expect(answer.retryAfter).toBe("1");
      expect(answer.body).toEqual({
        error: {
          code: 429,
          message: "Your requests run 1 at a time and too many are waiting their turn; retry once they are answered",
        },
      });
    }
  });

  it("answers /livez, /readyz and /metrics while every place is taken", async () => {
    const t = await startTestApp({ db: base.db, env: { SHED_MAX_IN_FLIGHT: "1" } });
    const busy = burst(t, 1);
    const probes = await Promise.all(
      ["/livez", "/readyz", "/metrics"].map((path) => t.app.fetch(new Request(`${baseUrl}${path}`))),
    );
    expect(probes.map((response) => response.status)).toEqual([200, 200, 200]);
    expect((await busy)[0]?.status).toBe(200);
  });

  it("never refuses a caller alone while the event loop is delayed past SHED_EVENT_LOOP_DELAY_MS", async () => {
    const t = await startTestApp({ db: base.db, env: { SHED_EVENT_LOOP_DELAY_MS: "50" } });
    expect((await burst(t, 1))[0]?.status).toBe(200);
    // The loop blocked for 300 ms, as a slow request of its own would; the next sample sees it.
    const blockedUntil = performance.now() + 300;
    while (performance.now() < blockedUntil) {
      // busy: this is the block
    }
    // Two turns of the loop: the timers of the second run the sampler, overdue, which measures the block.
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    // Nobody else is running: refusing it would relieve nobody (the rule under contention: test/unit).
    expect((await burst(t, 6)).map((answer) => answer.status)).toEqual(Array(6).fill(200));
  });

  it("reads SHED_MAX_IN_FLIGHT and SHED_EVENT_LOOP_DELAY_MS, 0 switching each off", () => {
    const defaults = loadConfig({});
    expect([
      defaults.shedMaxInFlight,
      defaults.shedMaxInFlightPerCaller,
      defaults.shedCallerWaitMs,
      defaults.shedEventLoopDelayMs,
    ]).toEqual([32, 2, 30_000, 200]);
    expect(loadConfig({ SHED_MAX_IN_FLIGHT: "0", SHED_EVENT_LOOP_DELAY_MS: "0" }).shedMaxInFlight).toBe(0);
    expect(() => loadConfig({ SHED_MAX_IN_FLIGHT: "-1" })).toThrow(ConfigError);
    expect(() => loadConfig({ SHED_EVENT_LOOP_DELAY_MS: "fast" })).toThrow("SHED_EVENT_LOOP_DELAY_MS: ");
  });
});
