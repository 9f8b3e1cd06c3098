import { parse } from "graphql";
import { beforeAll, describe, expect, it } from "vitest";
import { estimateCost, pointsOf } from "../../src/graphql/cost.ts";
import { graphqlLimits } from "../../src/graphql/limits.ts";
import { schema } from "../../src/schema.ts";
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

/** Rate limits on, in windows of a minute: the test clock starts at 2026-01-01T00:00:00Z. */
const limits = { RATE_LIMIT_USER: "50", RATE_LIMIT_ANONYMOUS: "7", RATE_LIMIT_WINDOW_SECONDS: "60" };
const windowEnd = "2026-01-01T00:01:00.000Z";

let limited: TestApp;
let unlimited: TestApp;
let org: SeededOrganization;

beforeAll(async () => {
  limited = await startTestApp({ env: limits });
  unlimited = await startTestApp({ db: limited.db });
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
  it("reports the estimated nodes and their points in rateLimit and extensions.cost, and the actual points", async () => {
    const variables = { id: org.organizationId, first: 25 };
    const expected = estimateCost(schema, parse(sitesQuery), variables, "Sites");
    // organization, title, sites: 3; 25 × (totalCount + nodes + id + title): 100; rateLimit, cost, nodeCount, maxCost: 4.
    expect(expected).toBe(107);

    const { status, body } = await post(unlimited, { query: sitesQuery, variables }, org.members.admin.token);
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    expect(body.data?.rateLimit).toEqual({ cost: 2, nodeCount: expected, maxCost: graphqlLimits.cost });
    // The organization has no site: its result holds 9 fields, one point.
    expect(body.extensions?.cost).toEqual({ requested: 2, actual: 1, nodeCount: expected, limit: graphqlLimits.cost });
    // Rate limiting is off in this app: nothing to report about a window.
    expect(body.extensions?.rateLimit).toBeUndefined();
  });

  it("gives each operation of a batch its own cost", async () => {
    const token = org.members.admin.token;
    const { body } = await unlimited.app
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

  it("counts points down between two cost-1 requests of one token, with the window's end", async () => {
    const query = "{ rateLimit { limit used remaining resetAt } }";
    const token = org.members.read.token;
    const first = await post(limited, { query }, token);
    const second = await post(limited, { query }, token);
    expect(first.body.data?.rateLimit).toEqual({ limit: 50, used: 1, remaining: 49, resetAt: windowEnd });
    expect(second.body.data?.rateLimit).toEqual({ limit: 50, used: 2, remaining: 48, resetAt: windowEnd });
    expect(second.body.extensions?.rateLimit).toEqual({ limit: 50, used: 2, remaining: 48, resetAt: windowEnd });
    expect(second.headers.get("RateLimit-Remaining")).toBe("48");
    expect(second.headers.get("X-RateLimit-Used")).toBe("2");
    expect(second.headers.get("X-RateLimit-Reset")).toBe(String(Date.parse(windowEnd) / 1000));
  });

  it("answers an anonymous caller with the limit of its client address", async () => {
    const { status, body } = await post(limited, { query: "{ rateLimit { cost limit remaining resetAt } }" });
    expect(status).toBe(200);
    expect(body.data?.rateLimit).toEqual({ cost: 1, limit: 7, remaining: 6, resetAt: windowEnd });
    expect(body.extensions).toEqual({
      cost: { requested: 1, actual: 1, nodeCount: 5, limit: graphqlLimits.cost },
      rateLimit: { limit: 7, used: 1, remaining: 6, resetAt: windowEnd },
    });
  });

  it("reports the cost of an operation it refuses for its cost", async () => {
    const read = "organizations(first: 1000) { nodes { spaces(first: 1000) { nodes { id title } } } }";
    const query = `{ a: ${read} b: ${read} c: ${read} d: ${read} }`;
    const expected = estimateCost(schema, parse(query), {});
    expect(expected).toBeGreaterThan(graphqlLimits.cost);
    const { body } = await post(unlimited, { query }, org.members.admin.token);
    expect(body.errors?.[0]?.extensions?.code).toBe("COST_LIMIT_EXCEEDED");
    expect(body.extensions?.cost).toEqual({
      requested: pointsOf(expected),
      actual: 0,
      nodeCount: expected,
      limit: graphqlLimits.cost,
    });
  });
});

/** A window of 500 points a user, so that one test's spending does not reach another's. */
async function pointsApp(): Promise<{ app: TestApp; token: string; organizationId: string }> {
  const app = await startTestApp({ db: limited.db, env: { ...limits, RATE_LIMIT_USER: "500" } });
  const seeded = await seedOrganization(limited.db, `Points Org ${Math.random()}`);
  return { app, token: seeded.members.admin.token, organizationId: seeded.organizationId };
}

/** 100 spaces' 100 change requests: about 100 × 100 × (nodes + id + number) nodes, about 300 points. */
const bigQuery = `query Big($id: ID!) {
  organization(id: $id) {
    spaces(first: 100) { nodes { id title changeRequests(first: 100) { nodes { id number } } } }
  }
}`;

describe("the rate limit counts cost points", () => {
  it("takes more points for a costly query than for a cost-1 query", async () => {
    const { app, token, organizationId } = await pointsApp();
    const points = pointsOf(estimateCost(schema, parse(bigQuery), { id: organizationId }, "Big"));
    expect(points).toBeGreaterThan(100);

    const cheap = await post(app, { query: "{ viewer { user { id } } }" }, token);
    expect(cheap.body.extensions?.cost?.requested).toBe(1);
    expect(cheap.body.extensions?.rateLimit?.used).toBe(1);
    const costly = await post(app, { query: bigQuery, variables: { id: organizationId } }, token);
    expect(costly.body.errors).toBeUndefined();
    expect(costly.body.extensions?.cost?.requested).toBe(points);
    expect(costly.body.extensions?.rateLimit?.used).toBe(1 + points);
    expect(costly.headers.get("RateLimit-Remaining")).toBe(String(500 - 1 - points));
    // The organization is empty: what the query actually produced is worth one point.
    expect(costly.body.extensions?.cost?.actual).toBe(1);
  });

  it("refuses an operation costing more than the points left (RATE_LIMITED), then a spent window with 429", async () => {
    const { app, token, organizationId } = await pointsApp();
    const variables = { id: organizationId };
    const first = await post(app, { query: bigQuery, variables }, token);
    expect(first.body.errors).toBeUndefined();
    const left = first.body.extensions?.rateLimit?.remaining ?? 0;
    expect(left).toBeLessThan(first.body.extensions?.cost?.requested ?? 0);

    // As GitHub answers it: the operation's error, not the request's status (a batch's other operations may run).
    const second = await post(app, { query: bigQuery, variables }, token);
    expect(second.status).toBe(200);
    expect(second.body.errors?.[0]?.extensions?.code).toBe("RATE_LIMITED");
    expect(second.body.data ?? null).toBeNull();
    // Refused before it ran: only the request's own point was taken.
    expect(second.headers.get("RateLimit-Remaining")).toBe(String(left - 1));

    // Cheap operations still fit in what is left, until the window is spent.
    for (let spent = 1; spent < left; spent++) await post(app, { query: "{ viewer { user { id } } }" }, token);
    const spentOut = await post(app, { query: "{ viewer { user { id } } }" }, token);
    expect(spentOut.status).toBe(429);
    expect(spentOut.headers.get("RateLimit-Remaining")).toBe("0");
    expect(Number(spentOut.headers.get("Retry-After"))).toBeGreaterThan(0);
  });

  it("charges a REST route the points of its document: a list of 100 costs more than a list of 1", async () => {
    const { app, token, organizationId } = await pointsApp();
    const list = (limit: number) =>
      app.app.fetch(
        new Request(`${baseUrl}/v1/orgs/${organizationId}/spaces?limit=${limit}`, {
          headers: { authorization: `Bearer ${token}` },
        }),
      );
    const one = await list(1);
    expect(one.status).toBe(200);
    expect(one.headers.get("X-RateLimit-Used")).toBe("1");
    const hundred = await list(100);
    expect(hundred.status).toBe(200);
    const spent = Number(hundred.headers.get("X-RateLimit-Used")) - 1;
    expect(spent).toBeGreaterThan(1);
    expect(Number(hundred.headers.get("RateLimit-Remaining"))).toBe(500 - 1 - spent);
  });
});
