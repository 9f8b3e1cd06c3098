import "../helpers/in-memory-tracing.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enqueueJob } from "../../src/jobs/queue.ts";
import { defineJob } from "../../src/jobs/registry.ts";
import { createSite, createSpace, sitePath } from "../factories.ts";
import { listen, type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { finishedSpans } from "../helpers/in-memory-tracing.ts";
import { expectNestedReadTrace, type SpanRecord } from "../helpers/trace-tree.ts";

// Tracing in process, its spans in an in-memory exporter: a real HTTP server (the HTTP instrumentation traces the
// server's requests), yoga's operation, the resolvers that load data, and the database's statements (pg's
// instrumentation on PostgreSQL, src/db/database.ts's spans on PGlite). test/ops/tracing-bundle.test.ts checks the
// same trace in dist/main.js, exported over OTLP.

const records = (): SpanRecord[] =>
  finishedSpans().map((span) => ({
    name: span.name,
    traceId: span.spanContext().traceId,
    spanId: span.spanContext().spanId,
    parentSpanId: span.parentSpanContext?.spanId,
  }));

const nestedRead = `query SiteStructure($id: ID!) {
  organization(id: $id) { sites(first: 5) { nodes { title sections(first: 5) { nodes { title } } } } }
}`;

describe("OpenTelemetry tracing", () => {
  const lines: string[] = [];
  let t: TestApp;
  let org: SeededOrganization;
  let server: Awaited<ReturnType<typeof listen>>;

  beforeAll(async () => {
    t = await startTestApp({ log: (line) => lines.push(line) });
    org = await seedOrganization(t.db);
    const space = await createSpace(t, org);
    for (const title of ["Docs", "Blog"]) {
      const site = await createSite(t, org, { title });
      const section = await t.rest("POST", `${sitePath(org, site.id)}/sections`, {
        token: org.members.admin.token,
        body: { spaceId: space.id, title: `${title} section` },
      });
      expect(section.status).toBe(201);
    }
    server = await listen(t.app);
  });

  afterAll(() => server?.close());

  it("traces a nested GraphQL read as HTTP -> GraphQL operation -> resolvers -> SQL, its trace id in the log line", async () => {
    const response = await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: { authorization: `Bearer ${org.members.admin.token}`, "content-type": "application/json" },
      body: JSON.stringify({ query: nestedRead, variables: { id: org.organizationId } }),
    });
    const body = await response.json();
    expect(body.errors).toBeUndefined();
    expect(body.data.organization.sites.nodes).toHaveLength(2);
    const http = expectNestedReadTrace(records(), "SiteStructure", "Query.organization");
    const logged = lines.map((line) => JSON.parse(line)).filter((line) => line.path === "/graphql");
    expect(logged).toEqual([expect.objectContaining({ message: "request", status: 200, traceId: http.traceId })]);
    // A repeat runs through the same pipeline: its own operation span, resolvers and statements.
    const before = finishedSpans().length;
    const repeat = await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: { authorization: `Bearer ${org.members.admin.token}`, "content-type": "application/json" },
      body: JSON.stringify({ query: nestedRead, variables: { id: org.organizationId } }),
    });
    expect((await repeat.json()).data).toEqual(body.data);
    expectNestedReadTrace(records().slice(before), "SiteStructure", "Query.organization");
  });

  it("names REST requests' spans by route template, not by path", async () => {
    const response = await fetch(`${server.url}/v1/orgs/${org.organizationId}`, {
      headers: { authorization: `Bearer ${org.members.admin.token}` },
    });
    expect(response.status).toBe(200);
    const spans = records();
    const names = spans.map((span) => span.name);
    expect(names).toContain("GET /v1/orgs/{organizationId}");
    expect(names.some((name) => name.includes(org.organizationId))).toBe(false);
    // The route's document runs through the GraphQL pipeline (src/graphql/server.ts), whose plugins trace it.
    const http = spans.findLast((span) => span.name === "GET /v1/orgs/{organizationId}");
    const operation = spans.findLast((span) => span.name === "query getOrganizationById");
    expect(operation?.traceId).toBe(http?.traceId);
  });

  it("continues the caller's trace when the request carries a W3C traceparent", async () => {
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const response = await fetch(`${server.url}/v1/orgs/${org.organizationId}`, {
      headers: {
        authorization: `Bearer ${org.members.admin.token}`,
        traceparent: `00-${traceId}-00f067aa0ba902b7-01`,
      },
    });
    expect(response.status).toBe(200);
    const http = records().findLast((span) => span.name === "GET /v1/orgs/{organizationId}");
    expect(http).toMatchObject({ traceId, parentSpanId: "00f067aa0ba902b7" });
  });

  it("traces each job run, its statements as its children", async () => {
    defineJob("traced-job", { run: async () => void (await t.db.prisma.user.count()) });
    await enqueueJob(t.db.prisma, "traced-job", {}, t.clock.now());
    expect(await t.runJobs()).toBe(1);
    const spans = records();
    const job = spans.find((span) => span.name === "job traced-job");
    expect(job?.parentSpanId).toBeUndefined();
    const children = spans.filter((span) => span.parentSpanId === job?.spanId).map((span) => span.name);
    expect(children.some((name) => /^(pg|pglite)\.query:SELECT/.test(name))).toBe(true);
  });

  it("keeps credentials out of every span: share keys and tokens in the query, the token in the header", async () => {
    const before = finishedSpans().length;
    const shareKey = "ShareKeyThatMustNotLeave0123456789abcdef";
    const token = org.members.admin.token;
    await fetch(`${server.url}/v1/orgs/${org.organizationId}?shareKey=${shareKey}&token=${token}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    // GraphQL over GET carries its document and variables in the query string.
    const variables = encodeURIComponent(JSON.stringify({ shareKey }));
    const document = encodeURIComponent(`{ space(id: "x", shareKey: "${shareKey}") { id } }`);
    await fetch(`${server.url}/graphql?query=${document}&variables=${variables}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const spans = finishedSpans().slice(before);
    const http = spans.filter((span) => span.attributes["url.query"] !== undefined);
    expect(http).toHaveLength(2);
    expect(http[0]?.attributes["url.query"]).toBe("shareKey=REDACTED&token=REDACTED");
    const exported = JSON.stringify(
      spans.map(({ name, attributes, events, links }) => ({ name, attributes, events, links })),
    );
    expect(exported).not.toContain(shareKey);
    expect(exported).not.toContain(token);
  });

  it("makes no trace of statements outside a request or a job (the job engine's polls)", async () => {
    const before = finishedSpans().length;
    await t.db.engineSql("SELECT 1");
    await t.db.sql.rows("SELECT 1");
    expect(records().slice(before)).toEqual([]);
  });

  it("names a job's span with its type and id, linked to the span of the request that queued it", async () => {
    defineJob("linked-job", { run: async () => {} });
    const { withSpan } = await import("../../src/platform/tracing.ts");
    const job = await withSpan("POST /queues-a-job", () => enqueueJob(t.db.prisma, "linked-job", {}, t.clock.now()));
    const request = finishedSpans().findLast((span) => span.name === "POST /queues-a-job");
    expect(await t.runJobs()).toBe(1);
    const run = finishedSpans().find((span) => span.name === "job linked-job");
    expect(run?.attributes).toMatchObject({ "job.name": "linked-job", "job.id": job.id });
    expect(run?.links.map((link) => link.context.spanId)).toEqual([request?.spanContext().spanId]);
    // Its own trace: a job may run long after the request ended.
    expect(run?.spanContext().traceId).not.toBe(request?.spanContext().traceId);
  });

  it("does not trace health and metrics probes", async () => {
    const before = finishedSpans().length;
    for (const path of ["/livez", "/readyz", "/metrics"])
      expect((await fetch(`${server.url}${path}`)).status).toBe(200);
    expect(
      records()
        .slice(before)
        .filter((span) => span.name.startsWith("GET")),
    ).toEqual([]);
  });
});
