import { beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config.ts";
import { baseUrl, type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { eventually } from "../helpers/eventually.ts";

/*
 * Past its capacity a process refuses new requests at once (503, Retry-After) instead of queueing them behind the
 * others: the requests it admits keep their latency, the excess learns it at once, health and metrics still answer.
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
  it("admits SHED_MAX_IN_FLIGHT requests at once and refuses the excess with 503 before any admitted one ends", async () => {
    const t = await startTestApp({ db: base.db, env: { SHED_MAX_IN_FLIGHT: "4" } });
    const answers = await burst(t, 40);
    const admitted = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status === 503);
    expect(admitted).toHaveLength(4);
    expect(refused).toHaveLength(36);
    for (const answer of refused) {
      expect(answer.retryAfter).toBe("1");
      expect(answer.body).toEqual({ error: { code: 503, message: "The server is overloaded; retry shortly" } });
    }
    // The excess is told at once: every refusal came before the first admitted request was answered.
    expect(Math.max(...refused.map((answer) => answer.order))).toBeLessThan(
      Math.min(...admitted.map((answer) => answer.order)),
    );
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
    const api = await burst(t, 1);
    expect(api[0]?.status).toBe(503);
    expect((await busy)[0]?.status).toBe(200);
  });

  it("refuses requests while the event loop is delayed past SHED_EVENT_LOOP_DELAY_MS, and admits them again after", async () => {
    const t = await startTestApp({ db: base.db, env: { SHED_EVENT_LOOP_DELAY_MS: "50" } });
    expect((await burst(t, 1))[0]?.status).toBe(200);
    // The loop blocked for 300 ms, as a burst of synchronous work would; the next sample sees it.
    const blockedUntil = performance.now() + 300;
    while (performance.now() < blockedUntil) {
      // busy: this is the overload
    }
    // Two turns of the loop: the timers of the second run the sampler, overdue, which measures the block.
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    const refused = await burst(t, 1);
    expect(refused[0]).toMatchObject({ status: 503, retryAfter: "1" });
    // A sample later the loop is free again.
    const statuses = await eventually(async () => (await burst(t, 1))[0]?.status, 200, 40);
    expect(statuses.at(-1)).toBe(200);
  });

  it("reads SHED_MAX_IN_FLIGHT and SHED_EVENT_LOOP_DELAY_MS, 0 switching each off", () => {
    const defaults = loadConfig({});
    expect([
      defaults.shedMaxInFlight,
      defaults.shedMaxInFlightPerCaller,
      defaults.shedCallerWaitMs,
      defaults.shedEventLoopDelayMs,
    ]).toEqual([32, 2, 1000, 200]);
    expect(loadConfig({ SHED_MAX_IN_FLIGHT: "0", SHED_EVENT_LOOP_DELAY_MS: "0" }).shedMaxInFlight).toBe(0);
    expect(() => loadConfig({ SHED_MAX_IN_FLIGHT: "-1" })).toThrow(ConfigError);
    expect(() => loadConfig({ SHED_EVENT_LOOP_DELAY_MS: "fast" })).toThrow("SHED_EVENT_LOOP_DELAY_MS: ");
  });
});
