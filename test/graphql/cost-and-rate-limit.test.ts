import { parse } from "graphql";
import { beforeAll, describe, expect, it } from "vitest";
import { schema } from "../../src/app/schema.ts";
import { graphqlLimits } from "../../src/graphql/limits.ts";
import { estimateCost, pointsOf, resultNodes } from "../../src/lib/query-cost.ts";
import { createSpace } from "../factories.ts";
import { baseUrl, type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";

interface CostBody {
  data?: {
    rateLimit?: {
      cost: number;
      nodeCount: number;
      maxCost: number;
      limit: number | null;
      used: number | null;
      remaining: number | null;
      resetAt: string;
    };
  } | null;
  errors?: { message: string; extensions?: { code?: string } }[];
  extensions?: {
    cost?: { requested: number; actual: number; nodeCount: number; limit: number };
    rateLimit?: { limit: number; used: number; remaining: number; resetAt: string };
  };
}

/**
 * Small buckets refilling over a minute (the test clock starts at 2026-01-01T00:00:00Z and stands still unless a test
 * moves it): 50 points a user refill at 5/6 of a point a second, 7 an address at 7/60.
 */
const limits = { RATE_LIMIT_USER: "50", RATE_LIMIT_ANONYMOUS: "7", RATE_LIMIT_WINDOW_SECONDS: "60" };
const start = Date.parse("2026-01-01T00:00:00.000Z");
const at = (seconds: number) => new Date(start + seconds * 1000).toISOString();

let limited: TestApp;
let defaults: TestApp;
let org: SeededOrganization;

beforeAll(async () => {
  limited = await startTestApp({ env: limits });
  defaults = await startTestApp({ db: limited.db });
  org = await seedOrganization(limited.db, "Cost Org");
});

async function post(app: TestApp, body: unknown, token?: string) {
  const headers = new Headers({ "content-type": "application/json" });
  if (token) headers.set("authorization", `Bearer ${token}`);
  const response = await app.app.fetch(
    new Request(`${baseUrl}/graphql`, { method: "POST", headers, body: JSON.stringify(body) }),
  );
  return { status: response.status, headers: response.headers, body: (await response.json()) as CostBody };
}

const sitesQuery = `query Sites($id: ID!, $first: Int) {
  organization(id: $id) { title sites(first: $first) { totalCount nodes { id title } } }
  rateLimit { cost nodeCount maxCost }
}`;

describe("cost and rate limit visible to clients", () => {
  it("reports the estimate and its points, and charges what the result held", async () => {
    const variables = { id: org.organizationId, first: 25 };
    const expected = estimateCost(schema, parse(sitesQuery), variables, "Sites");
    // organization, title, sites: 3; 25 × (totalCount + nodes + id + title): 100; rateLimit, cost, nodeCount, maxCost: 4.
    expect(expected).toBe(107);

    const { status, body } = await post(defaults, { query: sitesQuery, variables }, org.members.admin.token);
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    expect(body.data?.rateLimit).toEqual({ cost: 2, nodeCount: expected, maxCost: graphqlLimits.cost });
    // The organization has no site: its result holds 9 fields, one point, the one the request paid to start.
    expect(body.extensions?.cost).toEqual({ requested: 2, actual: 1, nodeCount: expected, limit: graphqlLimits.cost });
    expect(body.extensions?.rateLimit).toMatchObject({ limit: 5000, used: 1, remaining: 4999 });
  });

  it("gives each operation of a batch its own cost", async () => {
    const token = org.members.admin.token;
    const { body } = await defaults.app
      .fetch(
        new Request(`${baseUrl}/graphql`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
          body: JSON.stringify([
            { query: "{ rateLimit { nodeCount } }" },
            { query: sitesQuery, variables: { id: org.organizationId, first: 2 } },
          ]),
        }),
      )
      .then(async (response) => ({ body: (await response.json()) as CostBody[] }));
    expect(body.map((result) => result.extensions?.cost?.nodeCount)).toEqual([2, 15]);
    expect(body.map((result) => result.data?.rateLimit?.nodeCount)).toEqual([2, 15]);
  });

  it("counts points down between two cost-1 requests of one token, with when the bucket is full again", async () => {
    const query = "{ rateLimit { limit used remaining resetAt } }";
    const token = org.members.read.token;
    const first = await post(limited, { query }, token);
    const second = await post(limited, { query }, token);
    // 50 points a minute: one point back in 1.2 s, two in 2.4 s.
    expect(first.body.data?.rateLimit).toEqual({ limit: 50, used: 1, remaining: 49, resetAt: at(2) });
    expect(second.body.data?.rateLimit).toEqual({ limit: 50, used: 2, remaining: 48, resetAt: at(3) });
    expect(second.body.extensions?.rateLimit).toEqual({ limit: 50, used: 2, remaining: 48, resetAt: at(3) });
    expect(second.headers.get("RateLimit-Remaining")).toBe("48");
    expect(second.headers.get("RateLimit-Reset")).toBe("3");
    expect(second.headers.get("X-RateLimit-Used")).toBe("2");
    expect(second.headers.get("X-RateLimit-Reset")).toBe(String(Date.parse(at(3)) / 1000));
  });

  it("answers an anonymous caller with the bucket of its client address", async () => {
    const { status, body } = await post(limited, { query: "{ rateLimit { cost limit remaining resetAt } }" });
    expect(status).toBe(200);
    // 7 points a minute: one point back in 60 / 7 s.
    expect(body.data?.rateLimit).toEqual({ cost: 1, limit: 7, remaining: 6, resetAt: at(9) });
    expect(body.extensions).toEqual({
      cost: { requested: 1, actual: 1, nodeCount: 5, limit: graphqlLimits.cost },
      rateLimit: { limit: 7, used: 1, remaining: 6, resetAt: at(9) },
    });
  });

  it("refuses, before it runs and without charging it, an operation whose estimate passes the maximum", async () => {
    const read = "organizations(first: 1000) { nodes { spaces(first: 1000) { nodes { id title } } } }";
    const query = `{ a: ${read} b: ${read} c: ${read} d: ${read} }`;
    const expected = estimateCost(schema, parse(query), {});
    expect(expected).toBeGreaterThan(graphqlLimits.cost);
    const { body } = await post(defaults, { query }, org.members.admin.token);
    expect(body.errors?.[0]?.extensions?.code).toBe("COST_LIMIT_EXCEEDED");
    expect(body.extensions?.cost).toEqual({
      requested: pointsOf(expected),
      actual: 0,
      nodeCount: expected,
      limit: graphqlLimits.cost,
    });
  });
});

/** An organization of 30 spaces, and its admin's bucket of `points` points a minute. */
async function pointsApp(points: number): Promise<{ app: TestApp; token: string; organizationId: string }> {
  const app = await startTestApp({ db: limited.db, env: { ...limits, RATE_LIMIT_USER: String(points) } });
  const seeded = await seedOrganization(limited.db, `Points Org ${Math.random()}`);
  // Created through another app: its bucket, not the one under test, pays for them.
  for (let index = 0; index < 30; index++) await createSpace(defaults, seeded, { title: `Space ${index}` });
  return { app, token: seeded.members.admin.token, organizationId: seeded.organizationId };
}

/** The estimate asks for 100 spaces' 100 change requests; the organization holds 30 spaces and no change request. */
const bigQuery = `query Big($id: ID!) {
  organization(id: $id) {
    spaces(first: 100) { nodes { id title visibility createdAt changeRequests(first: 100) { nodes { id number } } } }
  }
}`;

const limitedRead = "{ viewer { user { id } } }";

describe("the rate limit charges what a call did", () => {
  it("charges a query the nodes it returned, not its estimate", async () => {
    const { app, token, organizationId } = await pointsApp(1000);
    const costly = await post(app, { query: bigQuery, variables: { id: organizationId } }, token);
    expect(costly.body.errors).toBeUndefined();
    const actual = pointsOf(resultNodes(costly.body.data));
    expect(actual).toBeGreaterThan(1);
    expect(costly.body.extensions?.cost?.requested).toBeGreaterThan(100 * actual);
    expect(costly.body.extensions?.cost?.actual).toBe(actual);
    // The request's first point was taken to start it; the rest once it ran.
    expect(costly.headers.get("RateLimit-Remaining")).toBe(String(1000 - actual));
  });

  it("lets a call overdraw the bucket, then refuses GraphQL POST and GET with 429 and Retry-After, free", async () => {
    const { app, token, organizationId } = await pointsApp(1);
    const costly = await post(app, { query: bigQuery, variables: { id: organizationId } }, token);
    expect(costly.body.errors).toBeUndefined();
    const actual = costly.body.extensions?.cost?.actual ?? 0;
    expect(actual).toBeGreaterThan(1);
    // 1 point a minute: the bucket is left at 1 - actual, and a request needs 1.
    const retryAfter = String(Math.ceil((1 - (1 - actual)) * 60));

    const refusedPost = await post(app, { query: limitedRead }, token);
    const refusedGet = await app.app.fetch(
      new Request(`${baseUrl}/graphql?query=${encodeURIComponent(limitedRead)}`, {
        headers: { authorization: `Bearer ${token}`, accept: "application/graphql-response+json" },
      }),
    );
    for (const refused of [
      { status: refusedPost.status, headers: refusedPost.headers, body: refusedPost.body },
      { status: refusedGet.status, headers: refusedGet.headers, body: (await refusedGet.json()) as CostBody },
    ]) {
      expect(refused.status).toBe(429);
      expect(refused.headers.get("Retry-After")).toBe(retryAfter);
      expect(refused.body.errors?.[0]?.extensions?.code).toBe("RATE_LIMITED");
      expect(refused.body.data).toBeUndefined();
    }
    // The refusals took nothing: once the bucket holds a point again, the next request runs.
    app.clock.advance(Number(retryAfter) * 1000);
    const again = await post(app, { query: limitedRead }, token);
    expect(again.status).toBe(200);
    expect(again.body.errors).toBeUndefined();
  });

  it("charges a REST route what its answer held: a list of 30 costs more than a list of 1", async () => {
    const { app, token, organizationId } = await pointsApp(1000);
    const list = (limit: number) =>
      app.app.fetch(
        new Request(`${baseUrl}/v1/orgs/${organizationId}/spaces?limit=${limit}`, {
          headers: { authorization: `Bearer ${token}` },
        }),
      );
    const one = await list(1);
    expect(one.status).toBe(200);
    expect(one.headers.get("X-RateLimit-Used")).toBe("1");
    const thirty = await list(30);
    expect(thirty.status).toBe(200);
    const spent = Number(thirty.headers.get("X-RateLimit-Used")) - 1;
    expect(spent).toBeGreaterThan(1);
    expect(Number(thirty.headers.get("RateLimit-Remaining"))).toBe(1000 - 1 - spent);
  });
});
