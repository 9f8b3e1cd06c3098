import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { ServerContext } from "../../src/app/app.ts";
import { enqueueJob } from "../../src/jobs/queue.ts";
import { createApiToken } from "../../src/modules/user/user.service.ts";
import { ConfigError, loadConfig } from "../../src/platform/config.ts";
import {
  baseUrl,
  listen,
  type SeededUser,
  seedOrganization,
  seedUser,
  startTestApp,
  type TestApp,
  testRedisUrl,
} from "../helpers/app.ts";
import { type SseSubscription, subscribe } from "../helpers/sse.ts";

/*
 * Limits count per person: minting more tokens must not multiply a user's requests, open subscriptions or tokens.
 */

const limits = { RATE_LIMIT_USER: "4", RATE_LIMIT_ANONYMOUS: "2", RATE_LIMIT_WINDOW_SECONDS: "60" };
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ env: limits });
});

const from = (address: string): ServerContext => ({ req: { socket: { remoteAddress: address } } });

async function call(app: TestApp, path: string, token?: string, address = "203.0.113.9") {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  return app.app.fetch(new Request(`${baseUrl}${path}`, { headers }), from(address));
}

async function graphql(app: TestApp, token: string, query: string, variables: Record<string, unknown> = {}) {
  const response = await app.app.fetch(
    new Request(`${baseUrl}/graphql`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ query, variables }),
    }),
  );
  return { status: response.status, headers: response.headers, body: await response.json() };
}

/** Another token of `user`, as `createAPIToken` mints them. */
async function mint(app: TestApp, user: SeededUser): Promise<string> {
  return (await createApiToken(app.db.prisma, user.id, { label: "minted" })).token;
}

describe("rate limit per user", () => {
  it("shares one window among all of a user's tokens, in the headers and the rateLimit field alike", async () => {
    const user = await seedUser(t.db, "minter");
    const tokens = [user.token, ...(await Promise.all([1, 2, 3, 4, 5].map(() => mint(t, user))))];
    const answers = [];
    for (const token of tokens) answers.push(await call(t, "/v1/orgs", token, `198.51.100.${answers.length + 1}`));
    expect(answers.map((response) => response.status)).toEqual([200, 200, 200, 200, 429, 429]);
    expect(answers.map((response) => response.headers.get("ratelimit-remaining"))).toEqual([
      "3",
      "2",
      "1",
      "0",
      "0",
      "0",
    ]);
    expect(answers[0]?.headers.get("ratelimit-limit")).toBe("4");
    expect(await answers[5]?.json()).toEqual({ error: { code: 429, message: expect.stringContaining("Rate limit") } });

    // Another user keeps an allowance of their own, and the rateLimit field reports the user's shared window.
    const other = await seedUser(t.db, "neighbour");
    const otherTokens = [other.token, await mint(t, other)];
    await call(t, "/v1/orgs", otherTokens[0]);
    const field = await graphql(t, otherTokens[1] as string, "{ rateLimit { limit remaining } }");
    expect(field.body.data).toEqual({ rateLimit: { limit: 4, remaining: 2 } });
    expect(field.headers.get("ratelimit-remaining")).toBe("2");
  });

  it("shares the user's window between two instances on one Redis", async () => {
    const shared = { db: t.db, env: { ...limits, REDIS_URL: testRedisUrl }, rateLimitKeyPrefix: randomUUID() };
    const one = await startTestApp(shared);
    const other = await startTestApp(shared);
    const user = await seedUser(t.db, "redis-minter");
    const tokens = [user.token, ...(await Promise.all(Array.from({ length: 11 }, () => mint(t, user))))];
    const answers = await Promise.all(
      tokens.map((token, index) => call(index % 2 === 0 ? one : other, "/v1/orgs", token)),
    );
    expect(answers.filter((response) => response.status === 200)).toHaveLength(4);
    expect(answers.filter((response) => response.status === 429)).toHaveLength(8);
  });

  it("accepts the former RATE_LIMIT_TOKEN and MAX_SUBSCRIPTIONS_PER_TOKEN; the new names win", () => {
    const former = loadConfig({ RATE_LIMIT_TOKEN: "7", MAX_SUBSCRIPTIONS_PER_TOKEN: "3" });
    expect([former.rateLimitUser, former.maxSubscriptionsPerUser]).toEqual([7, 3]);
    const both = loadConfig({ RATE_LIMIT_TOKEN: "7", RATE_LIMIT_USER: "9", MAX_SUBSCRIPTIONS_PER_USER: "4" });
    expect([both.rateLimitUser, both.maxSubscriptionsPerUser]).toEqual([9, 4]);
    expect(loadConfig({}).maxApiTokensPerUser).toBe(50);
    expect(() => loadConfig({ RATE_LIMIT_TOKEN: "-1" })).toThrow("RATE_LIMIT_TOKEN: ");
    expect(() => loadConfig({ MAX_API_TOKENS_PER_USER: "0" })).toThrow(ConfigError);
    expect(() => loadConfig({ MAX_API_TOKENS_PER_USER: "0" })).toThrow("MAX_API_TOKENS_PER_USER: ");
  });
});

describe("open subscriptions per user", () => {
  const JobProgress = `subscription($jobId: ID!) { jobProgress(jobId: $jobId) { id: jobId status } }`;

  it("counts every token of a user together", async () => {
    const capped = await startTestApp({ db: t.db, env: { MAX_SUBSCRIPTIONS_PER_USER: "2" } });
    const org = await seedOrganization(t.db, "Subscribers");
    const job = await enqueueJob(t.db.prisma, "per-user-idle", {}, t.clock.now(), org.organizationId);
    const user = org.members.read;
    const tokens = [user.token, await mint(t, user), await mint(t, user)];
    const server = await listen(capped.app);
    const open = (token: string) => subscribe(fetch, `${server.url}/graphql`, token, JobProgress, { jobId: job.id });
    const streams: SseSubscription[] = [];
    for (const token of tokens.slice(0, 2)) {
      const stream = await open(token);
      expect((await stream.next())?.data).toEqual({ jobProgress: { id: job.id, status: "PENDING" } });
      streams.push(stream);
    }
    const refused = await open(tokens[2] as string);
    expect((await refused.next())?.errors?.[0]).toMatchObject({
      message: "At most 2 subscriptions may be open per user; close one first",
      extensions: { code: "TOO_MANY_SUBSCRIPTIONS" },
    });
    // Another user of the same organization is not affected.
    const admin = await open(org.members.admin.token);
    expect((await admin.next())?.data).toEqual({ jobProgress: { id: job.id, status: "PENDING" } });
    for (const stream of [...streams, admin]) await stream.close();
    await server.close();
  });
});

describe("API tokens per user", () => {
  const CreateToken = `mutation { createAPIToken(input: { label: "more" }) { token apiToken { id } } }`;
  const RevokeToken = `mutation($id: ID!) { revokeAPIToken(input: { id: $id }) { apiToken { id } } }`;

  it("refuses createAPIToken past MAX_API_TOKENS_PER_USER active tokens; revoked and expired ones do not count", async () => {
    const capped = await startTestApp({ db: t.db, env: { MAX_API_TOKENS_PER_USER: "3" } });
    const user = await seedUser(t.db, "collector");
    await createApiToken(t.db.prisma, user.id, { expiresAt: new Date("2000-01-01T00:00:00Z") });
    const created = [];
    for (let index = 0; index < 3; index++) created.push(await graphql(capped, user.token, CreateToken));
    expect(created.map((answer) => Boolean(answer.body.data?.createAPIToken?.token))).toEqual([true, true, false]);
    expect(created[2]?.body.errors).toEqual([
      expect.objectContaining({
        message: "A user may hold at most 3 active API tokens; revoke one first",
        extensions: { code: "TOO_MANY_API_TOKENS", status: 409 },
      }),
    ]);
    expect(await t.db.prisma.apiToken.count({ where: { userId: user.id, revokedAt: null } })).toBe(4);

    const revoked = await graphql(capped, user.token, RevokeToken, {
      id: created[0]?.body.data.createAPIToken.apiToken.id,
    });
    expect(revoked.body.errors).toBeUndefined();
    expect((await graphql(capped, user.token, CreateToken)).body.data?.createAPIToken?.token).toMatch(/^dmt_/);
  });

  it("holds the cap under concurrent creations", async () => {
    const capped = await startTestApp({ db: t.db, env: { MAX_API_TOKENS_PER_USER: "4" } });
    const user = await seedUser(t.db, "racer");
    const answers = await Promise.all(Array.from({ length: 8 }, () => graphql(capped, user.token, CreateToken)));
    expect(answers.filter((answer) => answer.body.data?.createAPIToken?.token)).toHaveLength(3);
    expect(await t.db.prisma.apiToken.count({ where: { userId: user.id, revokedAt: null } })).toBe(4);
  });
});
