/*
 * The heavy-work abuse probes against the built server (dist/main.js, as `npm start` runs it) on a new PostgreSQL
 * database: `npx tsx test/bench/abuse-heavy.ts`. While each probe runs, a second client (another person: a reader
 * of the organization) sends small reads one after another and /livez checks, and measures its own latencies
 * (targets: p99 < 100 ms, /livez < 250 ms); resident memory is read before and after (target under the huge-text
 * probe: within 200 MB of idle).
 *
 * - pathological comment: a 99 KB body of unclosed links (`[a](b ` repeated) posted, then the space's comment list
 *   read 8 times in parallel; and 4 distinct such bodies posted at once (each converted on a worker thread);
 * - huge distinct texts: 400 distinct ~1 MB GraphQL texts, 4 at a time: half a small query padded with a comment (the
 *   attack as first reported; such comments are refused before parsing), half padded with a ~1 MB alias (one token,
 *   so the text parses, validates, runs and reaches the caches bounded by bytes);
 * - parallel PDFs: a change request of 20 pages of ~25 KB (500 KB of markdown), 4 export links downloaded twice each,
 *   all at once;
 * - slow uploads: 40 connections without a token, each announcing a 100-byte body and sending one byte, held 10 s;
 * - nodes ids: 8 other users, 2 connections each, sending `nodes(ids:)` with 34,000 copies of one id for 10 s;
 * - ref chains: 8 OpenAPI specs of a 30-level `$ref` chain (3.8 KB each, 2^30 copies expanded), processed by the jobs;
 * - wide tables: 8 comments of a 5 KB GFM table of 1,000 columns and 600 rows (a 108 MB document) posted at once;
 * - anonymous flood: 64 connections without a token on one address for 10 s.
 *
 * Words given as arguments run only the probes whose names hold them (`npx tsx test/bench/abuse-heavy.ts huge`).
 * BENCH_DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/postgres) names the PostgreSQL server.
 */
import { execFileSync } from "node:child_process";
import { connect, type Socket } from "node:net";
import { Worker } from "node:worker_threads";
import autocannon from "autocannon";
import pg from "pg";
import { openDatabase } from "../../src/db/database.ts";
import { addMember, createApiToken, createUser } from "../../src/modules/user/user.service.ts";
import { refChainSpec } from "../helpers/hostile-inputs.ts";
import { configuredLimits, rssMegabytes, type Server, startOurs, stopServer } from "./servers.ts";

const serverUrl = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const adminToken = "abuse-heavy-bench-admin-token";
/** Words naming the probes to run (`npx tsx test/bench/abuse-heavy.ts huge`); all of them when none. */
const chosen = process.argv.slice(2);
const publicUrl = "https://docs.bench.test";

/** The value below which `share` of the sorted values fall. */
const percentile = (sorted: number[], share: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0;

interface Answer<Body> {
  status: number;
  body: Body;
}

async function call<Body = unknown>(server: Server, method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${adminToken}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as Body } satisfies Answer<Body>;
}

function expectStatus<Body>(answer: Answer<Body>, status: number, what: string): Body {
  if (answer.status !== status) {
    throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
  }
  return answer.body;
}

interface Probe {
  name: string;
  seconds: number;
  smallP99: number;
  smallMax: number;
  livezMax: number;
  rssBefore: number;
  rssAfter: number;
  detail: string;
}

/**
 * The second client, on a thread of its own: the probes build and send megabyte bodies from this thread, whose
 * pauses (their collection, their serialization) would otherwise be counted as the server's. Once warm, it says
 * `ready`, then sends a small GraphQL read and a `/livez`, each one at a time every 20 ms, until told to stop, then
 * posts their latencies.
 */
const secondClientThread = `
const { parentPort, workerData } = require("node:worker_threads");
const { url, token, query } = workerData;
const small = [];
const livez = [];
let running = true;
parentPort.once("message", () => { running = false; });
const watch = async (into, request) => {
  while (running) {
    const started = performance.now();
    const response = await request();
    await response.arrayBuffer();
    into.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};
const read = () => fetch(url + "/graphql", {
  method: "POST",
  headers: { authorization: "Bearer " + token, "content-type": "application/json" },
  body: query,
});
const alive = () => fetch(url + "/livez");
// One of each first, unmeasured: a new thread's first requests pay for its HTTP client's start.
Promise.all([read(), alive()])
  .then((responses) => Promise.all(responses.map((response) => response.arrayBuffer())))
  .then(() => {
    parentPort.postMessage("ready");
    return Promise.allSettled([watch(small, read), watch(livez, alive)]);
  })
  .then(() => parentPort.postMessage({ small, livez }));
`;

async function underWatch(
  server: Server,
  watcherToken: string,
  name: string,
  probe: () => Promise<string>,
): Promise<Probe> {
  const secondClient = new Worker(secondClientThread, {
    eval: true,
    workerData: {
      url: server.url,
      token: watcherToken,
      query: JSON.stringify({ query: "query Small { organizations(first: 1) { nodes { id title } } }" }),
    },
  });
  const ready = new Promise((resolve, reject) => {
    secondClient.once("message", resolve);
    secondClient.once("error", reject);
  });
  await ready;
  const measured = new Promise<{ small: number[]; livez: number[] }>((resolve, reject) => {
    secondClient.once("message", resolve);
    secondClient.once("error", reject);
  });
  const stopWatching = async () => {
    secondClient.postMessage("stop");
    const latencies = await measured;
    await secondClient.terminate();
    return latencies;
  };
  const rssBefore = rssMegabytes(server);
  const started = performance.now();
  let detail: string;
  let latencies: { small: number[]; livez: number[] };
  try {
    process.stderr.write(`${name}...\n`);
    detail = await probe();
  } finally {
    latencies = await stopWatching();
  }
  const { small, livez } = latencies;
  const seconds = (performance.now() - started) / 1000;
  const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
  return {
    name,
    seconds,
    smallP99: percentile(sorted(small), 0.99),
    smallMax: Math.max(...small),
    livezMax: Math.max(...livez),
    rssBefore,
    rssAfter: rssMegabytes(server),
    detail,
  };
}

const unclosedLinks = (variant: number) => `${variant} ${"[a](b ".repeat(16_500)}`;

async function pathologicalComments(server: Server, database: pg.Client, spaceId: string): Promise<string> {
  const started = performance.now();
  const posted = await call<{ id: string }>(server, "POST", `/v1/spaces/${spaceId}/comments`, {
    body: { markdown: unclosedLinks(0) },
  });
  const postSeconds = (performance.now() - started) / 1000;
  // The list is read with the body stored, as a comment posted before bodies were converted at write time sits
  // there whether or not the post above was refused.
  const stored = expectStatus(
    await call<{ id: string }>(server, "POST", `/v1/spaces/${spaceId}/comments`, { body: { markdown: "Short." } }),
    200,
    "comment",
  );
  await database.query(`UPDATE "Comment" SET markdown = $1 WHERE id = $2`, [unclosedLinks(-1), stored.id]);
  const readsStarted = performance.now();
  const reads = await Promise.all(
    Array.from({ length: 8 }, () => call(server, "GET", `/v1/spaces/${spaceId}/comments`)),
  );
  const readSeconds = (performance.now() - readsStarted) / 1000;
  const distinctStarted = performance.now();
  const distinct = await Promise.all(
    [1, 2, 3, 4].map((variant) =>
      call(server, "POST", `/v1/spaces/${spaceId}/comments`, { body: { markdown: unclosedLinks(variant) } }),
    ),
  );
  const distinctSeconds = (performance.now() - distinctStarted) / 1000;
  const statuses = (answers: Answer<unknown>[]) => answers.map((answer) => answer.status).join(",");
  return (
    `post ${posted.status} in ${postSeconds.toFixed(2)} s; 8 parallel list reads with such a body stored ` +
    `${statuses(reads)} in ${readSeconds.toFixed(2)} s; 4 distinct posts at once ${statuses(distinct)} in ` +
    `${distinctSeconds.toFixed(2)} s`
  );
}

async function hugeDistinctTexts(server: Server): Promise<string> {
  const texts = 400;
  const statuses = new Map<number, number>();
  let next = 0;
  const sender = async () => {
    while (next < texts) {
      const index = next++;
      const distinct = String(index).padStart(8, "0");
      const query =
        index % 2 === 0
          ? `query Padded { organizations(first: 1) { nodes { id } } }\n#${distinct}${"x".repeat(1_000_000)}\n`
          : `query Padded { organizations(first: 1) { nodes { id } } a${distinct}${"x".repeat(1_000_000)}: __typename }`;
      const response = await fetch(`${server.url}/graphql`, {
        method: "POST",
        headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
        body: JSON.stringify({ query }),
      });
      await response.arrayBuffer();
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    }
  };
  await Promise.all([sender(), sender(), sender(), sender()]);
  const metrics = await (await fetch(`${server.url}/metrics`)).text();
  const caches = [...metrics.matchAll(/^cache_bytes\{cache="(graphql_[a-z_]+)"\} (\d+)$/gm)]
    .map(([, cache, bytes]) => `${cache} ${(Number(bytes) / 1024).toFixed(0)} KiB`)
    .join(", ");
  return `${texts} texts of ~1 MB (half padded with a comment, half with an alias), statuses ${JSON.stringify(Object.fromEntries(statuses))}; caches after: ${caches}`;
}

/**
 * Export links of a change request of 20 pages: the whole, a page with its subpages, two single pages. Made before
 * the probe is watched: content edits parse their pages' markdown on the event loop (not this probe's subject).
 */
async function exportLinks(server: Server, spaceId: string): Promise<string[]> {
  const changeRequest = expectStatus(
    await call<{ id: string }>(server, "POST", `/v1/spaces/${spaceId}/change-requests`, { subject: "Big export" }),
    201,
    "change request",
  );
  const base = `/v1/spaces/${spaceId}/change-requests/${changeRequest.id}`;
  const prose = "A sentence of *plain* prose with a [link](https://example.com) and `code`.\n\n".repeat(330);
  const pages: string[] = [];
  // Two pages per edit: a content edit parses its pages' markdown inside its transaction (5 s at most).
  for (let batch = 0; batch < 10; batch++) {
    const edit = expectStatus(
      await call<{ inserted: { id: string }[] }>(server, "POST", `${base}/content`, {
        changes: Array.from({ length: 2 }, (_, index) => ({
          type: "insert",
          page: { title: `Chapter ${batch * 2 + index + 1}`, markdown: prose },
        })),
      }),
      200,
      "content",
    );
    pages.push(...edit.inserted.map((item) => item.id));
  }
  const links: string[] = [];
  for (const query of ["", `?page=${pages[0]}`, `?page=${pages[5]}&only=true`, `?page=${pages[10]}&only=true`]) {
    const link = expectStatus(await call<{ url: string }>(server, "GET", `${base}/pdf${query}`), 200, "pdf link");
    links.push(link.url.replace(publicUrl, server.url));
  }
  return links;
}

async function parallelPdfs(links: string[]): Promise<string> {
  const started = performance.now();
  const downloads = await Promise.all(
    [...links, ...links].map(async (link) => {
      const response = await fetch(link);
      const bytes = (await response.arrayBuffer()).byteLength;
      return `${response.status}${response.status === 200 ? `:${(bytes / 1024).toFixed(0)}KiB` : ""}`;
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const again = performance.now();
  await (await fetch(links[0] as string)).arrayBuffer();
  const cachedMs = performance.now() - again;
  return (
    `500 KB of markdown in 20 pages; 8 downloads of 4 links at once: ${downloads.join(" ")} in ` +
    `${seconds.toFixed(2)} s; the whole export again (cached) in ${cachedMs.toFixed(0)} ms`
  );
}

/** 40 connections without a token that announce a body and send one byte of it, held open 10 s. */
async function slowUploads(server: Server): Promise<string> {
  const { hostname, port } = new URL(server.url);
  const sockets: Socket[] = [];
  const answers = new Map<string, number>();
  for (let index = 0; index < 40; index++) {
    const socket = connect(Number(port), hostname, () =>
      socket.write(
        "POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{",
      ),
    );
    socket.on("data", (chunk) => {
      const status = /^HTTP\/1\.1 (\d+)/.exec(chunk.toString())?.[1] ?? "?";
      answers.set(status, (answers.get(status) ?? 0) + 1);
    });
    socket.on("error", () => undefined);
    sockets.push(socket);
  }
  await new Promise((resolve) => setTimeout(resolve, 10_000));
  for (const socket of sockets) socket.destroy();
  return `40 slow uploads held 10 s; answered while sending: ${JSON.stringify(Object.fromEntries(answers))}`;
}

/** Tokens of `count` new members of the organization with `role`. */
async function memberTokens(databaseUrl: string, organizationId: string, count: number, role: "admin" | "read") {
  const db = await openDatabase({ kind: "postgres", url: databaseUrl });
  const tokens: string[] = [];
  try {
    for (let index = 0; index < count; index++) {
      const email = `${role}-${index}-${Date.now()}@bench.test`;
      const user = await createUser(db.prisma, { email, displayName: "Bench member" });
      await addMember(db.prisma, organizationId, user.id, role, new Date());
      tokens.push((await createApiToken(db.prisma, user.id, { label: "bench" })).token);
    }
  } finally {
    await db.close();
  }
  return tokens;
}

/** 8 other users of the organization, 2 connections each, sending 34,000 copies of one id to `nodes(ids:)` for 10 s. */
async function manyNodeIds(server: Server, databaseUrl: string, organizationId: string): Promise<string> {
  const tokens = await memberTokens(databaseUrl, organizationId, 8, "admin");
  const body = JSON.stringify({
    query: "query ($ids: [ID!]!) { nodes(ids: $ids) { id } }",
    variables: { ids: Array.from({ length: 34_000 }, () => organizationId) },
  });
  const until = performance.now() + 10_000;
  const statuses = new Map<number, number>();
  await Promise.all(
    tokens.flatMap((token) =>
      [0, 1].map(async () => {
        while (performance.now() < until) {
          const response = await fetch(`${server.url}/graphql`, {
            method: "POST",
            headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
            body,
          });
          await response.arrayBuffer();
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        }
      }),
    ),
  );
  return `${body.length} bytes a request; answers by status: ${JSON.stringify(Object.fromEntries(statuses))}`;
}

/** 8 specs of a 30-level chain, then their processing by the jobs, until each has ended. */
async function refChains(server: Server, organizationId: string): Promise<string> {
  const slugs = Array.from({ length: 8 }, (_, index) => `chain-${index}-${Date.now()}`);
  for (const slug of slugs) {
    expectStatus(
      await call(server, "POST", `/v1/orgs/${organizationId}/openapi`, { slug, source: { text: refChainSpec(30) } }),
      201,
      "spec",
    );
  }
  const states = new Map<string, string>();
  for (let attempt = 0; attempt < 600 && states.size < slugs.length; attempt++) {
    for (const slug of slugs) {
      const spec = await call<{ processingState: string; lastProcessedErrors?: { code?: string }[] }>(
        server,
        "GET",
        `/v1/orgs/${organizationId}/openapi/${slug}`,
      );
      if (spec.body.processingState === "complete") {
        states.set(slug, spec.body.lastProcessedErrors?.[0]?.code ?? "no error");
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const codes = [...states.values()].reduce<Record<string, number>>((counts, code) => {
    counts[code] = (counts[code] ?? 0) + 1;
    return counts;
  }, {});
  return `8 specs of 3.8 KB; ended: ${JSON.stringify(codes)}`;
}

/** 5 KB: a GFM table of 1,000 columns and 600 empty rows, each row padded to every column: a 108 MB document. */
const wideTable = `|${"a|".repeat(1000)}\n|${"-|".repeat(1000)}\n${"|\n".repeat(600)}`;

async function wideTables(server: Server, spaceId: string): Promise<string> {
  const answers = await Promise.all(
    Array.from({ length: 8 }, (_, index) =>
      call(server, "POST", `/v1/spaces/${spaceId}/comments`, { body: { markdown: `${index}\n\n${wideTable}` } }),
    ),
  );
  const statuses = answers.reduce<Record<number, number>>((counts, answer) => {
    counts[answer.status] = (counts[answer.status] ?? 0) + 1;
    return counts;
  }, {});
  return `8 comments of ${wideTable.length} bytes; answers by status: ${JSON.stringify(statuses)}`;
}

/** 64 connections without a token from one address, for 10 s. */
async function anonymousFlood(server: Server): Promise<string> {
  const flood = await autocannon({ url: `${server.url}/v1/orgs`, connections: 64, duration: 10 });
  return `${flood.requests.total} requests (${flood["2xx"]} 2xx, ${flood.non2xx} refused), ${flood.errors} errors`;
}

async function main() {
  execFileSync(process.execPath, ["scripts/build.mjs", "--if-stale"], { stdio: "inherit" });
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  const databaseName = `abuse_heavy_${Date.now()}`;
  await admin.query(`CREATE DATABASE ${databaseName}`);
  const url = new URL(serverUrl);
  url.pathname = `/${databaseName}`;
  const database = new pg.Client({ connectionString: url.toString() });
  const server = await startOurs({
    DATABASE_URL: url.toString(),
    BOOTSTRAP_ADMIN_TOKEN: adminToken,
    // The ref chains are processed by the jobs, on worker threads.
    RUN_JOBS: "true",
    // The attacks meet the server's default limits.
    ...configuredLimits(),
  });
  await database.connect();
  try {
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const idle = rssMegabytes(server);
    const [organization] = expectStatus(
      await call<{ items: { id: string }[] }>(server, "GET", "/v1/orgs"),
      200,
      "organizations",
    ).items;
    const space = expectStatus(
      await call<{ id: string }>(server, "POST", `/v1/orgs/${organization?.id}/spaces`, { title: "Abuse" }),
      201,
      "space",
    );
    const links = await exportLinks(server, space.id);
    // The second client is another person, a reader of the organization: the probes spend the admin's own budget.
    const [watcher] = await memberTokens(url.toString(), organization?.id as string, 1, "read");
    if (!watcher) throw new Error("no watcher token");
    const all: [string, () => Promise<string>][] = [
      ["pathological comment", () => pathologicalComments(server, database, space.id)],
      ["huge distinct texts", () => hugeDistinctTexts(server)],
      ["parallel PDFs", () => parallelPdfs(links)],
      ["slow uploads", () => slowUploads(server)],
      ["nodes ids", () => manyNodeIds(server, url.toString(), organization?.id as string)],
      ["ref chains", () => refChains(server, organization?.id as string)],
      ["wide tables", () => wideTables(server, space.id)],
      ["anonymous flood", () => anonymousFlood(server)],
    ];
    const probes: Probe[] = [];
    for (const [name, probe] of all) {
      if (chosen.length === 0 || chosen.some((word) => name.includes(word)))
        probes.push(await underWatch(server, watcher, name, probe));
    }
    const lines = [
      `idle RSS ${idle.toFixed(0)} MB`,
      "| probe | seconds | small read p99 / max (ms) | /livez max (ms) | RSS before -> after (MB) |",
      "|---|---|---|---|---|",
      ...probes.map(
        (probe) =>
          `| ${probe.name} | ${probe.seconds.toFixed(1)} | ${probe.smallP99.toFixed(0)} / ${probe.smallMax.toFixed(0)} | ` +
          `${probe.livezMax.toFixed(0)} | ${probe.rssBefore.toFixed(0)} -> ${probe.rssAfter.toFixed(0)} |`,
      ),
      "",
      ...probes.map((probe) => `- ${probe.name}: ${probe.detail}`),
    ];
    process.stdout.write(`${lines.join("\n")}\n`);
  } finally {
    await database.end();
    await stopServer(server);
    await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
    await admin.end();
  }
}

await main();
