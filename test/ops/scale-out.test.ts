import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { promisify } from "node:util";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../src/db/database.ts";
import { createApiToken, createUser } from "../../src/modules/user/user.service.ts";
import { testRedisUrl } from "../helpers/app.ts";
import { createScratchDatabase } from "../helpers/database.ts";
import { eventually } from "../helpers/eventually.ts";
import { type ServerProcess, startServerProcess, testProcessSecretsKey } from "../helpers/server-process.ts";

// Two real server processes (src/app/main.ts) on one PostgreSQL database and one Redis, as instances behind a load
// balancer run: what they share must hold whichever instance serves a request. The rate limit is counted in Redis;
// a revocation reaches the other instance's token cache through PostgreSQL's NOTIFY. PGlite is one process's
// database, so this runs on PostgreSQL only, and only with Redis reachable (CI's PostgreSQL pass has both).

const serverUrl = process.env.TEST_DATABASE_URL;

async function redisReachable(url: string): Promise<boolean> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await redis.connect();
    return (await redis.ping()) === "PONG";
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

const limit = 5;
const bootstrap = `bootstrap-${"s".repeat(24)}`;
const revokeToken = "mutation($id: ID!) { revokeAPIToken(input: { id: $id }) { apiToken { id revokedAt } } }";

describe.runIf(serverUrl && (await redisReachable(testRedisUrl)))("instances sharing PostgreSQL and Redis", () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  let databaseUrl: string;
  let db: Database;
  let first: ServerProcess;
  let second: ServerProcess;

  beforeAll(async () => {
    const database = await createScratchDatabase(serverUrl as string);
    cleanups.push(() => database.drop());
    databaseUrl = database.url;
    const env = {
      DATABASE_URL: databaseUrl,
      BOOTSTRAP_ADMIN_TOKEN: bootstrap,
      REDIS_URL: testRedisUrl,
      RATE_LIMIT_USER: String(limit),
      // An hour's window, so that a test's requests fall in one window; answers to revoked tokens are not limited.
      RATE_LIMIT_WINDOW_SECONDS: "3600",
      RATE_LIMIT_ANONYMOUS: "0",
      RUN_JOBS: "false",
    };
    // One after the other: the first migrates and creates the demo data.
    first = await startServerProcess(env);
    cleanups.push(() => first.stop());
    second = await startServerProcess(env);
    cleanups.push(() => second.stop());
    db = await openDatabase({ kind: "postgres", url: databaseUrl });
    cleanups.push(() => db.close());
  }, 180_000);

  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  /** A token of a new user: limits count per user, so its counts in Redis are this test's own. */
  async function newToken(): Promise<{ token: string; id: string }> {
    const user = await createUser(db.prisma, { email: `scale-${randomUUID()}@scale.test`, displayName: "Scale" });
    const { token, apiToken } = await createApiToken(db.prisma, user.id, { label: "scale-out" });
    return { token, id: apiToken.id };
  }

  async function get(server: ServerProcess, token: string) {
    const response = await fetch(`${server.url}/v1/orgs`, { headers: { authorization: `Bearer ${token}` } });
    return {
      status: response.status,
      remaining: response.headers.get("ratelimit-remaining"),
      body: (await response.json()) as unknown,
    };
  }

  async function graphql(server: ServerProcess, token: string, query: string, variables = {}) {
    const response = await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ query, variables }),
    });
    return { status: response.status, body: (await response.json()) as { data?: unknown; errors?: unknown[] } };
  }

  it("counts a user's requests across instances: the limit's next request is refused by either instance", async () => {
    const { token } = await newToken();
    const answers = [];
    for (let index = 0; index < limit; index++) answers.push(await get(index % 2 === 0 ? first : second, token));
    expect(answers.map((answer) => [answer.status, answer.remaining])).toEqual([
      [200, "4"],
      [200, "3"],
      [200, "2"],
      [200, "1"],
      [200, "0"],
    ]);
    for (const server of [second, first]) {
      const refused = await get(server, token);
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ error: { code: 429, message: expect.stringContaining("Rate limit") } });
    }
  });

  it("accepts no more than the limit of concurrent requests spread over both instances", async () => {
    const { token } = await newToken();
    const statuses = await Promise.all(
      Array.from(
        { length: 4 * limit },
        async (_, index) => (await get(index % 2 === 0 ? first : second, token)).status,
      ),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(limit);
    expect(statuses.filter((status) => status === 429)).toHaveLength(3 * limit);
  });

  it("a cached token revoked on one instance (GraphQL), or by the CLI, is refused by every instance within a second", async () => {
    const byServer = await newToken();
    const byCli = await newToken();
    // Both instances verify, and so cache, both tokens before they are revoked.
    for (const server of [first, second]) {
      for (const { token } of [byServer, byCli]) expect((await get(server, token)).status).toBe(200);
    }

    const revoked = await graphql(first, byServer.token, revokeToken, { id: byServer.id });
    expect(revoked.body.errors).toBeUndefined();
    expect((await get(first, byServer.token)).status).toBe(401);
    expect((await eventually(async () => (await get(second, byServer.token)).status, 401)).at(-1)).toBe(401);

    await promisify(execFile)(process.execPath, ["dist/cli.js", "token", "revoke", "--token-id", byCli.id], {
      env: { ...process.env, DATABASE_URL: databaseUrl, SECRETS_KEY: testProcessSecretsKey },
    });
    for (const server of [first, second]) {
      expect((await eventually(async () => (await get(server, byCli.token)).status, 401)).at(-1)).toBe(401);
    }
    // Other tokens are untouched.
    expect((await get(second, bootstrap)).status).toBe(200);
  }, 60_000);
});
