import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import autocannon from "autocannon";
import type pg from "pg";
import {
  createBenchDatabase,
  inProcessApp,
  type LoadOptions,
  machine,
  replaceBetweenMarkers,
  send,
  startOurs,
  stopServer,
} from "./servers.ts";
import { commonWord, rareWord, type SizedData, seedSized } from "./sizes-seed.ts";
import { type BenchRequest, siteStructureQuery } from "./workloads.ts";

// `npm run bench:scale -- --sizes 1,10`: one organization at each size factor (sizes-seed.ts), every read of issue
// 53's table against one server process as `npm start` runs it, on PostgreSQL: p50, throughput, CPU and SQL
// statements per request, and how each grows from the first size to the others. Written into docs/performance.md
// between its bench:sizes markers.

interface SizedWorkload {
  name: string;
  request: BenchRequest;
}

interface SizedResult {
  p50: number;
  p99: number;
  requestsPerSecond: number;
  /** Server CPU (user + system) over the measured run, per request. */
  cpuMilliseconds: number;
  statements: number;
  errors: number;
  loadAverage: number;
}

const graphqlPost = (query: string, variables: Record<string, unknown>, token: string): BenchRequest => ({
  method: "POST",
  path: "/graphql",
  headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
  body: JSON.stringify({ query, variables }),
});

const searchQuery = /* GraphQL */ `
  query SizedSearch($id: ID!, $query: String!) {
    organization(id: $id) {
      searchOrganizationContent(query: $query, first: 20) {
        totalCount
        nodes {
          spaceId title score
          pages { pageId title path score ancestors { title } urls { app } sections { anchor title path body score } }
        }
      }
    }
  }
`;
const pageQuery = /* GraphQL */ `
  query SizedPage($id: ID!, $page: ID!) {
    space(id: $id) { revision { page(id: $page) { id title path markdown } } }
  }
`;
const treeQuery = /* GraphQL */ `
  query SizedTree($id: ID!) {
    space(id: $id) { revision { pages { id title path pages { id title path pages { id title path } } } } }
  }
`;
const spacesQuery = /* GraphQL */ `
  query SizedSpaces($id: ID!) { organization(id: $id) { spaces(first: 20) { totalCount nodes { id title } } } }
`;
const spaceQuery = /* GraphQL */ `
  query SizedSpace($id: ID!) { space(id: $id) { id title emoji visibility createdAt } }
`;

export function sizedWorkloads(data: SizedData): SizedWorkload[] {
  const get = (path: string, token = data.token): BenchRequest => ({
    method: "GET",
    path,
    headers: { authorization: `Bearer ${token}` },
  });
  const org = data.organizationId;
  return [
    {
      name: "organization search, common word (GraphQL)",
      request: graphqlPost(searchQuery, { id: org, query: commonWord }, data.token),
    },
    { name: "organization search, common word (REST)", request: get(`/v1/orgs/${org}/search?query=${commonWord}`) },
    { name: "organization search, rare word (REST)", request: get(`/v1/orgs/${org}/search?query=${rareWord}`) },
    {
      name: "organization search, common word, as a READ member (REST)",
      request: get(`/v1/orgs/${org}/search?query=${commonWord}`, data.readerToken),
    },
    {
      name: "busy space search, common word (REST)",
      request: get(`/v1/spaces/${data.spaceId}/search?query=${commonWord}`),
    },
    {
      name: "one page of the busy space (GraphQL)",
      request: graphqlPost(pageQuery, { id: data.spaceId, page: data.busyPageId }, data.token),
    },
    {
      name: "one page of the busy space (REST)",
      request: get(`/v1/spaces/${data.spaceId}/content/page/${data.busyPageId}`),
    },
    { name: "the busy space's page tree (GraphQL)", request: graphqlPost(treeQuery, { id: data.spaceId }, data.token) },
    { name: "the busy space's pages (REST)", request: get(`/v1/spaces/${data.spaceId}/content/pages`) },
    {
      name: "spaces list, first page, as a READ member (GraphQL)",
      request: graphqlPost(spacesQuery, { id: org }, data.readerToken),
    },
    { name: "spaces list, first page (admin, GraphQL)", request: graphqlPost(spacesQuery, { id: org }, data.token) },
    {
      name: "spaces list, first page, as a READ member (REST)",
      request: get(`/v1/orgs/${org}/spaces?limit=20`, data.readerToken),
    },
    {
      name: "nested read org -> sites -> sections -> site spaces (GraphQL)",
      request: graphqlPost(siteStructureQuery, { id: org }, data.token),
    },
    { name: "space by id (GraphQL)", request: graphqlPost(spaceQuery, { id: data.spaceId }, data.token) },
    { name: "space by id (REST)", request: get(`/v1/spaces/${data.spaceId}`) },
    { name: "change requests, first 20 (REST)", request: get(`/v1/spaces/${data.spaceId}/change-requests?limit=20`) },
    {
      name: "the busy space's comments, first 20 (REST)",
      request: get(`/v1/spaces/${data.spaceId}/comments?limit=20`),
    },
    // Last: each request adds a comment to the busy space, which the comment list above would count.
    {
      name: "a comment posted on a page of the busy space (REST)",
      request: {
        method: "POST",
        path: `/v1/spaces/${data.spaceId}/comments`,
        headers: { authorization: `Bearer ${data.token}`, "content-type": "application/json" },
        body: JSON.stringify({ body: { markdown: "Noted." }, page: data.busyPageId }),
      },
    },
  ];
}

/** SQL statements each workload's request sends, counted through the app in this process. */
async function statementCounts(databaseUrl: string, workloads: SizedWorkload[]): Promise<number[]> {
  const { db, app, close } = await inProcessApp(databaseUrl);
  try {
    const counts: number[] = [];
    for (const { request } of workloads) {
      // The first request of a token also reads the token (cached after): the second is counted.
      for (let round = 0; round < 2; round++) {
        const before = db.statementCount();
        const response = await app.fetch(new Request(`http://bench.test${request.path}`, request));
        if (!response.ok) {
          throw new Error(`${request.method} ${request.path} answered ${response.status}: ${await response.text()}`);
        }
        await response.arrayBuffer();
        if (round === 1) counts.push(db.statementCount() - before);
      }
    }
    return counts;
  } finally {
    await close();
  }
}

/** User + system CPU of a process, in milliseconds, from /proc (clock ticks of 10 ms). */
function cpuMilliseconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function measureSize(databaseUrl: string, data: SizedData, options: LoadOptions): Promise<SizedResult[]> {
  const workloads = sizedWorkloads(data);
  const statements = await statementCounts(databaseUrl, workloads);
  const server = await startOurs({ DATABASE_URL: databaseUrl });
  try {
    const results: SizedResult[] = [];
    for (const [index, workload] of workloads.entries()) {
      await send(server.url, workload.request);
      const run = (duration: number) =>
        autocannon({
          url: `${server.url}${workload.request.path}`,
          method: workload.request.method as "GET" | "POST",
          headers: workload.request.headers,
          body: workload.request.body,
          connections: options.connections,
          duration,
        });
      await run(Math.max(2, Math.round(options.seconds / 3)));
      const cpuBefore = cpuMilliseconds(server.process.pid as number);
      const result = await run(options.seconds);
      const cpu = cpuMilliseconds(server.process.pid as number) - cpuBefore;
      const measured: SizedResult = {
        p50: result.latency.p50,
        p99: result.latency.p99,
        requestsPerSecond: result.requests.average,
        cpuMilliseconds: cpu / Math.max(1, result.requests.total),
        statements: statements[index] as number,
        errors: result.errors + result.non2xx,
        loadAverage: loadavg()[0] as number,
      };
      results.push(measured);
      process.stdout.write(
        `${data.factor}x ${workload.name}: p50 ${measured.p50} ms, ${measured.requestsPerSecond.toFixed(0)} req/s, ${measured.cpuMilliseconds.toFixed(1)} ms CPU, ${measured.statements} statements\n`,
      );
    }
    return results;
  } finally {
    await stopServer(server);
  }
}

function sizesTable(factors: number[], names: string[], results: SizedResult[][]): string {
  const header = [
    "| workload |",
    ...factors.map((factor) => ` ${factor}x p50 ms (req/s) |`),
    ...factors.map((factor) => ` ${factor}x CPU ms / statements / errors |`),
    ...factors.slice(1).map((factor) => ` p50 ${factor}x / ${factors[0]}x |`),
    ...factors.slice(1).map((factor) => ` CPU ${factor}x / ${factors[0]}x |`),
  ].join("");
  // A name column, then per size p50 and CPU, then per further size the two growths.
  const lines = [header, `|---|${"---|".repeat(factors.length * 2 + (factors.length - 1) * 2)}`];
  for (const [index, name] of names.entries()) {
    const cells = results.map((size) => size[index] as SizedResult);
    const first = cells[0] as SizedResult;
    lines.push(
      [
        `| ${name} |`,
        ...cells.map((cell) => ` ${cell.p50} (${cell.requestsPerSecond.toFixed(0)}) |`),
        ...cells.map((cell) => ` ${cell.cpuMilliseconds.toFixed(1)} / ${cell.statements} / ${cell.errors} |`),
        ...cells.slice(1).map((cell) => ` ${(Math.max(cell.p50, 1) / Math.max(first.p50, 1)).toFixed(1)}x |`),
        ...cells
          .slice(1)
          .map((cell) => ` ${(cell.cpuMilliseconds / Math.max(first.cpuMilliseconds, 0.1)).toFixed(1)}x |`),
      ].join(""),
    );
  }
  return lines.join("\n");
}

/**
 * Seeds, measures and drops one database per size factor; writes the table into docs/performance.md unless `noDocs`.
 * Failed requests (a caller's queue overflowing on a slow read) are counted in the table, not fatal.
 */
export async function measureSizes(
  admin: pg.Client,
  serverUrl: string,
  factors: number[],
  options: LoadOptions,
  noDocs: boolean,
): Promise<void> {
  const results: SizedResult[][] = [];
  const shapes: string[] = [];
  let names: string[] = [];
  for (const factor of factors) {
    const seeding = performance.now();
    const bench = await createBenchDatabase(admin, serverUrl, { seed: (db) => seedSized(db, factor) });
    const seconds = ((performance.now() - seeding) / 1000).toFixed(0);
    shapes.push(
      `${factor}x: ${200 * factor} spaces, ${bench.data.pages} current pages (the busy space ${50 * factor}) and as many in older revisions, ${400 * factor} comments and ${200 * factor} change requests in the busy space, ${50 * factor} members (seeded and analyzed in ${seconds} s)`,
    );
    try {
      names = sizedWorkloads(bench.data).map((workload) => workload.name);
      results.push(await measureSize(bench.url, bench.data, options));
    } finally {
      await bench.drop();
    }
  }
  const summary = [
    `Run of ${new Date().toISOString().slice(0, 10)} on ${await machine(admin)}: one server process as \`npm start\` runs it, ${options.connections} connections from one autocannon process, a warm-up then ${options.seconds} s per workload; CPU is the server process's (user + system) over the measured run per request, statements are counted through the app. Sizes: ${shapes.join("; ")}. 20 sites and 2,000 site spaces at every size.`,
    "",
    sizesTable(factors, names, results),
  ].join("\n");
  process.stdout.write(`\n${summary}\n`);
  if (!noDocs) replaceBetweenMarkers("sizes", summary);
}
