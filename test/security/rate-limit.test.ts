import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { ServerContext } from "../../src/app/app.ts";
import { ConfigError, loadConfig } from "../../src/platform/config.ts";
import { baseUrl, seedOrganization, startTestApp, type TestApp, testRedisUrl } from "../helpers/app.ts";

const limits = { RATE_LIMIT_USER: "3", RATE_LIMIT_ANONYMOUS: "2", RATE_LIMIT_WINDOW_SECONDS: "60" };
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ env: limits });
});

function from(address: string): ServerContext {
  return { req: { socket: { remoteAddress: address } } };
}

async function call(app: TestApp, path: string, token?: string, address = "203.0.113.1") {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  return app.app.fetch(new Request(`${baseUrl}${path}`, { headers }), from(address));
}

describe("rate limits", () => {
  it("counts per user: RateLimit headers on each answer, then 429 with Retry-After in the public error shape", async () => {
    const org = await seedOrganization(t.db, "Limited");
    const token = org.members.read.token;
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await call(t, "/v1/orgs", token));
    expect(answers.map((response) => response.status)).toEqual([200, 200, 200, 429]);
    expect(answers.map((response) => response.headers.get("ratelimit-remaining"))).toEqual(["2", "1", "0", "0"]);
    expect(answers[0]?.headers.get("ratelimit-limit")).toBe("3");
    const refused = answers[3] as Response;
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    expect(await refused.json()).toEqual({ error: { code: 429, message: expect.stringContaining("Rate limit") } });

    // Another user has their own budget; GraphQL shares the user's budget with REST.
    expect((await call(t, "/v1/orgs", org.members.admin.token)).status).toBe(200);
    const graphql = await t.app.fetch(
      new Request(`${baseUrl}/graphql`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ query: "{ viewer { user { id } } }" }),
      }),
    );
    expect(graphql.status).toBe(429);

    t.clock.advance(60_000);
    expect((await call(t, "/v1/orgs", token)).status).toBe(200);
  });

  it("counts anonymous calls per client address", async () => {
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await call(t, "/v1/orgs", undefined, "198.51.100.7")).status);
    expect(statuses).toEqual([401, 401, 429]);
    expect((await call(t, "/v1/orgs", undefined, "198.51.100.8")).status).toBe(401);
    // An unknown token is an anonymous call of its address.
    expect((await call(t, "/v1/orgs", "dmt_unknown", "198.51.100.7")).status).toBe(429);
  });

  it("counts anonymous calls behind TRUST_PROXY_HOPS proxies by the address the proxy saw, never by what a client wrote", async () => {
    const proxied = await startTestApp({ db: t.db, env: { ...limits, TRUST_PROXY_HOPS: "1" } });
    const viaProxy = (forwardedFor: string) =>
      proxied.app.fetch(
        new Request(`${baseUrl}/v1/orgs`, { headers: { "x-forwarded-for": forwardedFor } }),
        from("10.0.0.2"),
      );
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await viaProxy("198.51.100.20")).status);
    expect(statuses).toEqual([401, 401, 429]);
    // Another client behind the same proxy has its own count; a spoofed entry before the proxy's changes nothing.
    expect((await viaProxy("198.51.100.21")).status).toBe(401);
    expect((await viaProxy("192.0.2.99, 198.51.100.20")).status).toBe(429);
    // Without the setting, the header is the client's own claim: ignored.
    const direct = [];
    for (const forwardedFor of ["198.51.100.30", "198.51.100.31", "198.51.100.32"]) {
      direct.push(
        (
          await t.app.fetch(
            new Request(`${baseUrl}/v1/orgs`, { headers: { "x-forwarded-for": forwardedFor } }),
            from("10.0.0.3"),
          )
        ).status,
      );
    }
    expect(direct).toEqual([401, 401, 429]);
  });

  it("shares the count between two app instances on one Redis: never more than the limit together", async () => {
    const shared = { db: t.db, env: { ...limits, REDIS_URL: testRedisUrl }, rateLimitKeyPrefix: randomUUID() };
    const one = await startTestApp(shared);
    const other = await startTestApp(shared);
    const org = await seedOrganization(t.db, "Shared budget");
    const token = org.members.read.token;
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => call(i % 2 === 0 ? one : other, "/v1/orgs", token)),
    );
    expect(answers.filter((response) => response.status === 200)).toHaveLength(3);
    expect(answers.filter((response) => response.status === 429)).toHaveLength(9);
    expect(answers.map((response) => response.headers.get("ratelimit-remaining")).sort()).toEqual([
      ...Array(10).fill("0"),
      "1",
      "2",
    ]);
  });

  it("counts per process, with a warning logged, while Redis cannot be reached", async () => {
    const lines: string[] = [];
    const env = { ...limits, REDIS_URL: "redis://127.0.0.1:1" };
    const unreachable = await startTestApp({ db: t.db, env, log: (line) => lines.push(line) });
    const org = await seedOrganization(t.db, "Redis down");
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await call(unreachable, "/v1/orgs", org.members.read.token)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const warnings = lines.map((line) => JSON.parse(line)).filter((entry) => entry.level === "warn");
    expect(warnings).toEqual([expect.objectContaining({ message: expect.stringContaining("Redis unreachable") })]);
  });

  it("refuses a REDIS_URL that is no redis:// or rediss:// URL at start-up", () => {
    expect(() => loadConfig({ REDIS_URL: "http://127.0.0.1:6379" })).toThrow(ConfigError);
    expect(() => loadConfig({ REDIS_URL: "http://127.0.0.1:6379" })).toThrow(
      "REDIS_URL: must be a redis:// or rediss:// URL",
    );
    expect(loadConfig({ REDIS_URL: "rediss://cache.internal:6380/2" }).redisUrl).toBe("rediss://cache.internal:6380/2");
  });

  it("refuses bodies over MAX_BODY_BYTES with 413 on /v1 and /graphql, before reading further", async () => {
    const small = await startTestApp({ db: t.db, env: { MAX_BODY_BYTES: "2048" } });
    const body = JSON.stringify({ query: `{ viewer { user { id } } } # ${"x".repeat(4096)}` });
    for (const path of ["/graphql", "/v1/orgs"]) {
      const response = await small.app.fetch(
        new Request(`${baseUrl}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body }),
      );
      expect(response.status).toBe(413);
      expect(await response.json()).toEqual({
        error: { code: 413, message: "Request body is larger than 2048 bytes" },
      });
    }
  });
});
