import persistedDocuments from "@docs-management-gateway/sdk/persisted-documents.json" with { type: "json" };
import pg from "pg";
import { createBenchDatabase, load, send, startOurs, stopServer } from "./servers.ts";
import type { BenchRequest } from "./workloads.ts";

// The execution pipeline's paths side by side in one run (`npx tsx test/bench/pipeline.ts`, after `npm run build`):
// the SDK's SiteStructure read by id over GET (as the SDK sends it) and over POST, by its text over POST, and one
// space by id over GraphQL and REST. Rounds alternate the workloads, so a load from elsewhere falls on all of them.

const serverUrl = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const seconds = Number(process.env.BENCH_SECONDS ?? "5");
const rounds = Number(process.env.BENCH_ROUNDS ?? "2");

const siteStructureId = Object.entries(persistedDocuments).find(([, text]) =>
  text.startsWith("query SiteStructure("),
)?.[0];
if (!siteStructureId) throw new Error("no SiteStructure document in src/sdk/persisted-documents.json");
const siteStructureText = persistedDocuments[siteStructureId as keyof typeof persistedDocuments];

const admin = new pg.Client({ connectionString: serverUrl });
await admin.connect();
const bench = await createBenchDatabase(admin, serverUrl);
const server = await startOurs({ DATABASE_URL: bench.url });
try {
  const { data } = bench;
  // graphql-request's headers, which the SDK sends.
  const headers = {
    authorization: `Bearer ${data.token}`,
    accept: "application/graphql-response+json, application/json",
  };
  const post = (body: object): BenchRequest => ({
    method: "POST",
    path: "/graphql",
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const variables = { organizationId: data.organizationId };
  const query = new URLSearchParams({
    documentId: `sha256:${siteStructureId}`,
    variables: JSON.stringify(variables),
    operationName: "SiteStructure",
  });
  const spaceQuery = "query BenchSpace($id: ID!) { space(id: $id) { id title emoji visibility createdAt } }";
  const workloads: Record<string, BenchRequest> = {
    "SiteStructure GET ?documentId=": { method: "GET", path: `/graphql?${query}`, headers },
    "SiteStructure POST documentId": post({
      documentId: `sha256:${siteStructureId}`,
      variables,
      operationName: "SiteStructure",
    }),
    "SiteStructure POST query": post({ query: siteStructureText, variables, operationName: "SiteStructure" }),
    "space(id:) POST query": post({ query: spaceQuery, variables: { id: data.spaceId } }),
    // A body with `extensions` never took the old repeat shortcut: what running through yoga's whole pipeline costs.
    "space(id:) POST query, extensions": post({ query: spaceQuery, variables: { id: data.spaceId }, extensions: {} }),
    "GET /v1/spaces/{id}": { method: "GET", path: `/v1/spaces/${data.spaceId}`, headers },
  };
  for (const request of Object.values(workloads)) await send(server.url, request);

  const throughput = new Map<string, number[]>();
  for (let round = 0; round < rounds; round++) {
    const names = Object.keys(workloads);
    if (round % 2 === 1) names.reverse();
    for (const name of names) {
      const result = await load(server.url, workloads[name] as BenchRequest, { seconds, connections: 10 });
      if (result.errors > 0) throw new Error(`${name}: ${result.errors} errors`);
      throughput.set(name, [...(throughput.get(name) ?? []), result.requestsPerSecond]);
      process.stdout.write(
        `round ${round + 1} ${name}: ${result.requestsPerSecond.toFixed(0)} req/s p50 ${result.p50} ms\n`,
      );
    }
  }
  const mean = (name: string) => {
    const values = throughput.get(name) ?? [];
    return values.reduce((sum, value) => sum + value, 0) / values.length;
  };
  process.stdout.write("\nmean req/s\n");
  for (const name of Object.keys(workloads)) process.stdout.write(`${name}: ${mean(name).toFixed(0)}\n`);
  const ratio = (a: string, b: string) => `${a} / ${b}: ${(mean(a) / mean(b)).toFixed(2)}x\n`;
  process.stdout.write(`\n${ratio("SiteStructure GET ?documentId=", "SiteStructure POST documentId")}`);
  process.stdout.write(ratio("SiteStructure GET ?documentId=", "SiteStructure POST query"));
  process.stdout.write(ratio("GET /v1/spaces/{id}", "space(id:) POST query"));
} finally {
  await stopServer(server);
  await bench.drop();
  await admin.end();
}
