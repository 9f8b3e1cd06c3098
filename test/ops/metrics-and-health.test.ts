import { beforeAll, describe, expect, it } from "vitest";
import { enqueueJob } from "../../src/jobs/queue.ts";
import { ConfigError, loadConfig } from "../../src/platform/config.ts";
import { baseUrl, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});

async function scrape(): Promise<string> {
  const response = await t.app.fetch(new Request(`${baseUrl}/metrics`));
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain("text/plain");
  return response.text();
}

/** The value of one sample line (`name{labels} value`), 0 when the series does not exist yet. */
function sample(text: string, series: string): number {
  const line = text.split("\n").find((candidate) => candidate.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe("GET /metrics", () => {
  it("counts requests and their latency by route template and operation, REST and GraphQL", async () => {
    const org = await seedOrganization(t.db, "Metered");
    const token = org.members.admin.token;
    const restSeries = `method="GET",route="/v1/orgs/{organizationId}",operation="getOrganizationById"`;
    const before = sample(await scrape(), `http_requests_total{${restSeries},status="200"}`);

    await t.rest("GET", `/orgs/${org.organizationId}`, { token });
    await t.rest("GET", `/orgs/${org.organizationId}`, { token });
    await t.graphql(token).request("query MeteredViewer { viewer { user { id } } }");

    const text = await scrape();
    expect(sample(text, `http_requests_total{${restSeries},status="200"}`)).toBe(before + 2);
    expect(sample(text, `http_request_duration_seconds_count{${restSeries}}`)).toBeGreaterThanOrEqual(before + 2);
    expect(text).toContain(`http_request_duration_seconds_bucket{le="0.005",${restSeries}}`);
    expect(
      sample(text, `http_requests_total{method="POST",route="/graphql",operation="MeteredViewer",status="200"}`),
    ).toBe(1);
    // Ids never become labels.
    expect(text).not.toContain(org.organizationId);
  });

  it("counts the SQL statements sent to the database", async () => {
    const org = await seedOrganization(t.db, "Statements");
    const before = sample(await scrape(), "db_sql_statements_total");
    await t.rest("GET", `/orgs/${org.organizationId}/members`, { token: org.members.admin.token });
    const after = sample(await scrape(), "db_sql_statements_total");
    // The members list runs at least its page and count statements (plus the scrape's own queue-depth query).
    expect(after - before).toBeGreaterThanOrEqual(2);
  });

  it("reports the job queue depth by status", async () => {
    const before = sample(await scrape(), `jobs_queue_depth{status="pending"}`);
    await enqueueJob(t.db.prisma, "metrics-test", {}, t.clock.now());
    await enqueueJob(t.db.prisma, "metrics-test", {}, t.clock.now());
    expect(sample(await scrape(), `jobs_queue_depth{status="pending"}`)).toBe(before + 2);
  });
});

describe("liveness and readiness", () => {
  it("answers /livez and /readyz while serving, and /readyz 503 once the app stops accepting traffic", async () => {
    const { app } = await startTestApp();
    expect((await app.fetch(new Request(`${baseUrl}/livez`))).status).toBe(200);
    const ready = await app.fetch(new Request(`${baseUrl}/readyz`));
    expect(ready.status).toBe(200);
    // What the instance does, for an operator reading a load balancer's checks.
    expect(await ready.json()).toEqual({
      status: "ready",
      instance: { serves: true, runsJobs: expect.any(Boolean), tracing: false },
    });

    app.stopAcceptingTraffic();
    const stopping = await app.fetch(new Request(`${baseUrl}/readyz`));
    expect(stopping.status).toBe(503);
    expect(await stopping.json()).toMatchObject({ status: "stopping" });
    expect((await app.fetch(new Request(`${baseUrl}/livez`))).status).toBe(200);
  });
});

describe("configuration", () => {
  it("refuses bad values at start with one message naming every bad variable", () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: "eighty",
        DATABASE_URL: "mysql://x",
        LOG_LEVEL: "loud",
        BOOTSTRAP_ADMIN_TOKEN: "short",
        RUN_JOBS: "maybe",
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toMatch(/^Invalid configuration:/);
    for (const name of ["PORT", "DATABASE_URL", "LOG_LEVEL", "BOOTSTRAP_ADMIN_TOKEN", "RUN_JOBS"]) {
      expect(message).toContain(name);
    }
    expect(message).toContain("DATABASE_URL: must be a postgres:// or postgresql:// URL");
    expect(message).toContain("RUN_JOBS: must be true or false");
    expect(loadConfig({ RUN_JOBS: "false" }).runJobs).toBe(false);
    expect(loadConfig({}).runJobs).toBe(true);
  });
});
