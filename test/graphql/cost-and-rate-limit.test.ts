import { parse } from "graphql";
import { beforeAll, describe, expect, it } from "vitest";
import { estimateCost } from "../../src/graphql/cost.ts";
import { graphqlLimits } from "../../src/graphql/limits.ts";
import { schema } from "../../src/schema.ts";
import { baseUrl, type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";

interface CostBody {
  data?: {
    rateLimit?: { cost: number; maxCost: number; limit: number | null; remaining: number | null; resetAt: string };
  } | null;
  errors?: { message: string; extensions?: { code?: string } }[];
  extensions?: {
    cost?: { requested: number; limit: number };
    rateLimit?: { limit: number; remaining: number; resetAt: string };
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
  rateLimit { cost maxCost }
}`;

describe("cost and rate limit visible to clients", () => {
  it("reports the estimator's cost of the operation in rateLimit.cost and extensions.cost", async () => {
    const variables = { id: org.organizationId, first: 25 };
    const expected = estimateCost(schema, parse(sitesQuery), variables, "Sites");
    // organization, title, sites: 3; 25 × (totalCount + nodes + id + title): 100; rateLimit, cost, maxCost: 3.
    expect(expected).toBe(106);

    const { status, body } = await post(unlimited, { query: sitesQuery, variables }, org.members.admin.token);
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    expect(body.data?.rateLimit).toEqual({ cost: expected, maxCost: graphqlLimits.cost });
    expect(body.extensions?.cost).toEqual({ requested: expected, limit: graphqlLimits.cost });
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
            { query: "{ rateLimit { cost } }" },
            { query: sitesQuery, variables: { id: org.organizationId, first: 2 } },
          ]),
        }),
      )
      .then(async (response) => ({ body: (await response.json()) as CostBody[] }));
    expect(body.map((result) => result.extensions?.cost?.requested)).toEqual([2, 14]);
    expect(body.map((result) => result.data?.rateLimit?.cost)).toEqual([2, 14]);
  });

  it("counts remaining requests down between two requests of one token, with the window's end", async () => {
    const query = "{ rateLimit { limit remaining resetAt } }";
    const token = org.members.read.token;
    const first = await post(limited, { query }, token);
    const second = await post(limited, { query }, token);
    expect(first.body.data?.rateLimit).toEqual({ limit: 50, remaining: 49, resetAt: windowEnd });
    expect(second.body.data?.rateLimit).toEqual({ limit: 50, remaining: 48, resetAt: windowEnd });
    expect(second.body.extensions?.rateLimit).toEqual({ limit: 50, remaining: 48, resetAt: windowEnd });
    expect(second.headers.get("RateLimit-Remaining")).toBe("48");
  });

  it("answers an anonymous caller with the limit of its client address", async () => {
    const { status, body } = await post(limited, { query: "{ rateLimit { cost limit remaining resetAt } }" });
    expect(status).toBe(200);
    expect(body.data?.rateLimit).toEqual({ cost: 5, limit: 7, remaining: 6, resetAt: windowEnd });
    expect(body.extensions).toEqual({
      cost: { requested: 5, limit: graphqlLimits.cost },
      rateLimit: { limit: 7, remaining: 6, resetAt: windowEnd },
    });
  });

  it("reports the cost of an operation it refuses for its cost", async () => {
    const read = "organizations(first: 1000) { nodes { spaces(first: 1000) { nodes { id title } } } }";
    const query = `{ a: ${read} b: ${read} c: ${read} d: ${read} }`;
    const expected = estimateCost(schema, parse(query), {});
    expect(expected).toBeGreaterThan(graphqlLimits.cost);
    const { body } = await post(unlimited, { query }, org.members.admin.token);
    expect(body.errors?.[0]?.extensions?.code).toBe("COST_LIMIT_EXCEEDED");
    expect(body.extensions?.cost).toEqual({ requested: expected, limit: graphqlLimits.cost });
  });
});
