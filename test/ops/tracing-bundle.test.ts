import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createScratchDatabase } from "../helpers/database.ts";
import { startServerProcess } from "../helpers/server-process.ts";
import { expectNestedReadTrace, type SpanRecord } from "../helpers/trace-tree.ts";

// Tracing in what production runs: dist/main.js, the esbuild bundle, where instrumentations only see the packages
// left in node_modules. Spans go over OTLP/HTTP (JSON) to a collector in this test, exported when SIGTERM stops
// the server. With OTEL_EXPORTER_OTLP_ENDPOINT unset, no OpenTelemetry package may be loaded at all.

const moduleLogHook = fileURLToPath(new URL("../helpers/module-log.mjs", import.meta.url));
const bootstrap = `bootstrap-${"t".repeat(24)}`;
const serverUrl = process.env.TEST_DATABASE_URL;
const work = mkdtempSync(join(tmpdir(), "tracing-bundle-"));
const cleanups: (() => Promise<unknown>)[] = [];
/** Each test starts and stops a server process: ~20 s on a loaded 2-core machine, more than vitest's default. */
const serverTestTimeout = 120_000;

/** OTLP/HTTP's JSON body, as far as the test reads it. */
interface OtlpBody {
  resourceSpans: {
    scopeSpans: { spans: { name: string; traceId: string; spanId: string; parentSpanId?: string }[] }[];
  }[];
}

/** An OTLP/HTTP collector: every span POSTed to /v1/traces. */
async function startCollector() {
  const spans: SpanRecord[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (request.url === "/v1/traces") {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as OtlpBody;
        for (const { scopeSpans } of body.resourceSpans) {
          for (const { spans: batch } of scopeSpans) {
            for (const { name, traceId, spanId, parentSpanId } of batch) {
              spans.push({ name, traceId, spanId, parentSpanId: parentSpanId || undefined });
            }
          }
        }
      }
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans };
}

/** A server process on a database of its own (PostgreSQL with TEST_DATABASE_URL, else PGlite), its modules logged. */
async function startServer(name: string, env: Record<string, string>) {
  const database = serverUrl ? await createScratchDatabase(serverUrl) : undefined;
  if (database) cleanups.push(() => database.drop());
  const moduleLog = join(work, `${name}.modules`);
  const server = await startServerProcess({
    DATA_DIR: join(work, name),
    DATABASE_URL: database?.url ?? "",
    RUN_JOBS: "false",
    BOOTSTRAP_ADMIN_TOKEN: bootstrap,
    LOG_LEVEL: "info",
    NODE_OPTIONS: `--import=${moduleLogHook}`,
    MODULE_LOG: moduleLog,
    ...env,
  });
  cleanups.push(() => server.stop());
  const modules = () => readFileSync(moduleLog, "utf8").split("\n").filter(Boolean);
  return { server, modules };
}

const nestedRead = `query SiteStructure {
  organizations(first: 1) { nodes { sites(first: 5) { nodes { title sections(first: 5) { nodes { title } } } } } }
}`;

async function readNested(url: string) {
  const response = await fetch(`${url}/graphql`, {
    method: "POST",
    headers: { authorization: `Bearer ${bootstrap}`, "content-type": "application/json" },
    body: JSON.stringify({ query: nestedRead }),
  });
  const body = await response.json();
  expect(body.errors).toBeUndefined();
  expect(body.data.organizations.nodes[0].sites.nodes.length).toBeGreaterThan(0);
}

const openTelemetryModules = (modules: string[]) => modules.filter((url) => url.includes("/@opentelemetry/"));

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  rmSync(work, { recursive: true, force: true });
});

describe("tracing in dist/main.js", () => {
  let collector: Awaited<ReturnType<typeof startCollector>>;

  beforeAll(async () => {
    collector = await startCollector();
  });

  it(
    "exports HTTP -> GraphQL -> SQL spans of a nested read over OTLP, its trace id in the request's log line",
    async () => {
      const { server, modules } = await startServer("traced", { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url });
      await readNested(server.url);
      expect(await server.stop()).toBe(0);
      const rootField = "Query.organizations";
      const http = expectNestedReadTrace(collector.spans, "SiteStructure", rootField);
      const names = collector.spans.map((span) => span.name);
      // PostgreSQL's statements are pg's instrumentation's; PGlite's are src/db/database.ts's.
      expect(names.some((name) => name.startsWith(serverUrl ? "pg.query:" : "pglite.query:"))).toBe(true);
      const requestLine = server
        .output()
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line))
        .find((line) => line.message === "request" && line.path === "/graphql");
      expect(requestLine?.traceId).toBe(http.traceId);
      // The positive control of the next test: the module log sees OpenTelemetry's packages when they load.
      expect(openTelemetryModules(modules()).length).toBeGreaterThan(0);
    },
    serverTestTimeout,
  );

  it(
    "loads no OpenTelemetry package when OTEL_EXPORTER_OTLP_ENDPOINT is unset",
    async () => {
      const { server, modules } = await startServer("untraced", { OTEL_EXPORTER_OTLP_ENDPOINT: "" });
      await readNested(server.url);
      expect(await server.stop()).toBe(0);
      expect(modules().some((url) => url.endsWith("/dist/main.js"))).toBe(true);
      expect(openTelemetryModules(modules())).toEqual([]);
      const requestLine = server
        .output()
        .split("\n")
        .find((line) => line.includes('"message":"request"'));
      expect(requestLine).toBeDefined();
      expect(requestLine).not.toContain("traceId");
    },
    serverTestTimeout,
  );
});
