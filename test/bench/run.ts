import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import {
  type ExplainReport,
  explainWorkloads,
  missingIndexes,
  orderWorkloads,
  seqScanRowThreshold,
} from "./explain.ts";
import { ensurePostgraphileInstalled, postgraphileArguments, preparePostgraphileDatabase } from "./postgraphile.ts";
import {
  createBenchDatabase,
  createBenchDataDirectory,
  idleRssMegabytes,
  load as loadOnce,
  machine,
  replaceBetweenMarkers,
  rssMegabytes,
  type Server,
  send,
  startOurs,
  startServer,
  stopServer,
} from "./servers.ts";
import { soak, soakTable } from "./soak.ts";
import {
  type FootprintRow,
  footprintTable,
  type LoadResult,
  table,
  targetMet,
  targetRatio,
  type WorkloadResult,
} from "./stats.ts";
import { type BenchRequest, benchShape, type ReferenceName, type Workload, workloads } from "./workloads.ts";

// `npm run bench`: our server, a hand-written node:http + pg baseline, PostGraphile v4 and bare graphql-yoga on one
// generated PostgreSQL dataset, each in its own process, driven in turn by autocannon from this process. The results
// table goes into docs/performance.md between its bench markers. `-- --soak` runs the 5-minute soak on the nested
// read instead.
const { values: flags } = parseArgs({
  options: {
    seconds: { type: "string", default: process.env.BENCH_SECONDS ?? "10" },
    connections: { type: "string", default: process.env.BENCH_CONNECTIONS ?? "10" },
    /** Paired runs (ours, then the reference) per workload; the table shows the one with the median ratio. */
    rounds: { type: "string", default: process.env.BENCH_ROUNDS ?? "5" },
    /** Only the workloads whose name contains this (docs/performance.md is then left as it is). */
    only: { type: "string" },
    soak: { type: "boolean", default: false },
    "soak-seconds": { type: "string", default: "300" },
    /** Soak rate in requests per second; by default half of what a short probe measures. */
    rate: { type: "string" },
    /** Leave docs/performance.md as it is. */
    "no-docs": { type: "boolean", default: false },
    /** Skip the workloads on a freshly loaded (never analyzed) database. */
    "no-fresh": { type: "boolean", default: false },
  },
});
const serverUrl = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const duration = Number(flags.seconds);
const connections = Number(flags.connections);
const rounds = Number(flags.rounds);

/** Each server's RSS read right after its latest load: what the load left, before V8's memory reducer runs. */
const rssAfterLatestLoad = new Map<Server, number>();
/**
 * When the settled RSS is read: V8's memory reducer runs its full collections some 25-45 s after a load ends
 * (PostGraphile's at ~30 s, ours at 35-45 s, traced with --trace-gc); read at 30 s, ours had not settled yet.
 */
const settleMilliseconds = 60_000;

async function load(server: Server, request: BenchRequest): Promise<LoadResult> {
  const result = await loadOnce(server.url, request, { seconds: duration, connections });
  rssAfterLatestLoad.set(server, rssMegabytes(server));
  return result;
}

/**
 * `rounds` rounds of ours then every reference, back to back so all see the same machine: the machine is shared and
 * one run's ratio moves by a third, the median of several much less.
 */
async function pairedRuns(ours: Server, workload: Workload, references: Map<ReferenceName, Server>) {
  const measured: { ours: LoadResult; theirs: LoadResult[] }[] = [];
  for (let round = 0; round < rounds; round++) {
    const oursLoad = await load(ours, workload.request);
    const theirs: LoadResult[] = [];
    for (const comparison of workload.comparisons) {
      theirs.push(await load(references.get(comparison.reference) as Server, comparison.request));
    }
    measured.push({ ours: oursLoad, theirs });
  }
  return workload.comparisons.map((comparison, index) => {
    const pairs = measured.map((round) => {
      const theirs = round.theirs[index] as LoadResult;
      return { ours: round.ours, theirs, ratio: targetRatio(comparison.target, round.ours, theirs) };
    });
    const sorted = [...pairs].sort((a, b) => a.ratio - b.ratio);
    const median = sorted[Math.floor(sorted.length / 2)] as (typeof pairs)[number];
    return {
      ours: median.ours,
      theirs: median.theirs,
      roundRatios: pairs.map((pair) => pair.ratio),
      errors: pairs.reduce((sum, pair) => sum + pair.ours.errors + pair.theirs.errors, 0),
    };
  });
}

/** SQL statements per request: ours counts Prisma's in `/metrics` (whose own job-count query is subtracted). */
async function statementsPerRequest(read: () => Promise<number>, url: string, request: BenchRequest) {
  const before = await read();
  const afterIdle = await read();
  const idle = afterIdle - before;
  const repeats = 5;
  for (let i = 0; i < repeats; i++) await send(url, request);
  return ((await read()) - afterIdle - idle) / repeats;
}

/** A body without GraphQL's `extensions` (ours reports each operation's cost there; the references do not). */
function withoutExtensions(body: string): string {
  const parsed = JSON.parse(body);
  if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) delete parsed.extensions;
  return JSON.stringify(parsed);
}

const oursStatementCounter = (url: string) => async () => {
  const text = await (await fetch(`${url}/metrics`)).text();
  return Number(/^db_sql_statements_total (\d+)/m.exec(text)?.[1]);
};
const baselineStatementCounter = (url: string) => async () => Number(await (await fetch(`${url}/statements`)).text());

function explainSummary(report: ExplainReport): string {
  const lines = [
    `EXPLAIN of the ${report.statements} distinct SQL statements the workloads send: ${missingIndexes(report).length} sequential scans of tables above ${seqScanRowThreshold} rows without a usable index.`,
  ];
  const chosen = report.seqScans.filter((scan) => scan.indexAvailable);
  if (chosen.length > 0) {
    lines.push(
      `${chosen.length} more where an index exists but the planner estimates a scan cheaper, the statement reading a large share of the table (${[...new Set(chosen.map((scan) => `"${scan.table}", ${scan.rows} rows`))].join("; ")}).`,
    );
  }
  for (const scan of missingIndexes(report))
    lines.push(`- Seq Scan on "${scan.table}" (${scan.rows} rows): ${scan.sql}`);
  return lines.join("\n");
}

/**
 * The embedded default: a first start on an empty PGlite directory (it creates the demo data), then a restart on the
 * same directory, the case the start-time target is about; and the nested read on a PGlite directory holding the
 * bench's data, one round as long as the PostgreSQL rounds.
 */
async function embeddedFootprint() {
  const dataDir = mkdtempSync(join(tmpdir(), "bench-pglite-"));
  try {
    const first = await startOurs({ DATA_DIR: dataDir });
    const firstStartRss = await idleRssMegabytes(first);
    await stopServer(first);
    const again = await startOurs({ DATA_DIR: dataDir });
    const idleRss = await idleRssMegabytes(again);
    await stopServer(again);
    const loaded = await createBenchDataDirectory();
    try {
      const server = await startOurs({ DATA_DIR: loaded.dataDir });
      try {
        const [nested] = workloads(loaded.data);
        if (!nested) throw new Error("no nested workload");
        const nestedRead = await load(server, nested.request);
        return {
          firstStart: first.startMilliseconds,
          firstStartRss,
          restart: again.startMilliseconds,
          idleRss,
          nestedRead,
          rssAfterNestedRead: rssMegabytes(server),
        };
      } finally {
        await stopServer(server);
      }
    } finally {
      loaded.remove();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** `npm run bench:jobs` in a process of its own (it defines a job type of its own); its lines and PostgreSQL's p99. */
function jobStartLatency(): { lines: string[]; postgresP99: number } {
  const output = execFileSync(process.execPath, ["--import", "tsx", "test/bench/jobs.ts"], { encoding: "utf8" });
  const lines = output.trim().split("\n");
  const oneAtATime = lines.find((line) => line.startsWith("PostgreSQL, one at a time")) ?? "";
  return { lines, postgresP99: Number(/p99 ([\d.]+) ms/.exec(oneAtATime)?.[1] ?? Number.NaN) };
}

function startBaseline(databaseUrl: string): Promise<Server> {
  return startServer(["--import", "tsx", "test/bench/baseline.ts"], "/healthz", { DATABASE_URL: databaseUrl });
}

function startPostgraphile(databaseUrl: string): Promise<Server> {
  return startServer(
    (port) => postgraphileArguments(databaseUrl, port),
    {
      method: "POST",
      path: "/graphql",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "{ __typename }" }),
    },
    {},
  );
}

/**
 * The workloads that read the database, compared with PostGraphile and the hand-written baseline, on a database loaded
 * and never analyzed (as after a restore, an import or a bulk load, before autovacuum gets to it), each server started
 * on it right after the load, as after a restore. The nested read's targets hold on both databases.
 */
async function freshlyLoadedRows(admin: pg.Client): Promise<WorkloadResult[]> {
  const fresh = await createBenchDatabase(admin, serverUrl, { analyze: false });
  const servers: Server[] = [];
  try {
    const ours = await startOurs({ DATABASE_URL: fresh.url });
    servers.push(ours);
    await preparePostgraphileDatabase(fresh.url);
    const postgraphile = await startPostgraphile(fresh.url);
    servers.push(postgraphile);
    const baseline = await startBaseline(fresh.url);
    servers.push(baseline);
    const references = new Map<ReferenceName, Server>([
      ["PostGraphile", postgraphile],
      ["baseline", baseline],
    ]);
    const rows: WorkloadResult[] = [];
    for (const workload of workloads(fresh.data)) {
      const comparisons = workload.comparisons.filter((comparison) => references.has(comparison.reference));
      if (comparisons.length === 0 || (flags.only && !workload.name.includes(flags.only))) continue;
      const bytes = Buffer.byteLength(await send(ours.url, workload.request));
      const oursStatements = await statementsPerRequest(oursStatementCounter(ours.url), ours.url, workload.request);
      const results = await pairedRuns(ours, { ...workload, comparisons }, references);
      for (const [index, comparison] of comparisons.entries()) {
        const row: WorkloadResult = {
          workload: `${workload.name}, freshly loaded`,
          reference: comparison.reference,
          target: comparison.target,
          bytes,
          oursStatements,
          theirsStatements:
            comparison.reference === "baseline"
              ? await statementsPerRequest(baselineStatementCounter(baseline.url), baseline.url, comparison.request)
              : undefined,
          ...(results[index] as (typeof results)[number]),
        };
        rows.push(row);
        process.stdout.write(`${table([row]).split("\n").at(-1)}\n`);
      }
    }
    return rows;
  } finally {
    await Promise.all(servers.map(stopServer));
    await fresh.drop();
  }
}

const megabytes = (value: number) => `${value.toFixed(0)} MB`;
const seconds = (milliseconds: number) => `${(milliseconds / 1000).toFixed(2)} s`;

async function main() {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  const bench = await createBenchDatabase(admin, serverUrl);
  const { url: databaseUrl, data } = bench;
  const servers: Server[] = [];
  try {
    const selected = workloads(data).filter((workload) => !flags.only || workload.name.includes(flags.only));

    // A first start applies nothing new but may create demo data; the measured start is the one after it.
    await stopServer(await startOurs({ DATABASE_URL: databaseUrl }));
    const ours = await startOurs({ DATABASE_URL: databaseUrl });
    servers.push(ours);
    const oursIdleRss = await idleRssMegabytes(ours);

    if (flags.soak) {
      const [nested] = workloads(data);
      if (!nested) throw new Error("no nested workload");
      const rate = flags.rate ? Number(flags.rate) : Math.max(1, Math.floor((await probe(ours, nested.request)) / 2));
      const soakSeconds = Number(flags["soak-seconds"]);
      process.stdout.write(`soak: ${rate} req/s for ${soakSeconds}s after a 1-minute warm-up\n`);
      const report = await soak(ours.url, nested.request, rate, soakSeconds);
      const text = `Soak of ${new Date().toISOString().slice(0, 10)} on ${await machine(admin)}:\n\n${soakTable(report)}`;
      process.stdout.write(`\n${text}\n`);
      if (!flags["no-docs"]) replaceBetweenMarkers("soak", text);
      return;
    }

    ensurePostgraphileInstalled();
    const freshRows = flags["no-fresh"] ? [] : await freshlyLoadedRows(admin);
    await preparePostgraphileDatabase(databaseUrl);
    const baseline = await startBaseline(databaseUrl);
    const bareYoga = await startServer(["--import", "tsx", "test/bench/bare-yoga.ts"], "/health", {});
    const postgraphile = await startPostgraphile(databaseUrl);
    servers.push(baseline, bareYoga, postgraphile);
    const postgraphileIdleRss = await idleRssMegabytes(postgraphile);
    const references = new Map<ReferenceName, Server>([
      ["baseline", baseline],
      ["bare yoga", bareYoga],
      ["PostGraphile", postgraphile],
    ]);

    // Every order and filter a list offers is explained too, not only the measured workloads.
    const explain = await explainWorkloads(databaseUrl, [...selected, ...orderWorkloads(data)]);
    process.stdout.write(`${explainSummary(explain)}\n`);

    const rows: WorkloadResult[] = [];
    for (const workload of selected) {
      const oursText = await send(ours.url, workload.request);
      const oursBody = withoutExtensions(oursText);
      for (const comparison of workload.comparisons) {
        const theirBody = withoutExtensions(
          await send((references.get(comparison.reference) as Server).url, comparison.request),
        );
        // The baseline and bare yoga answer the same data; PostGraphile answers its own schema's shape.
        if (comparison.reference !== "PostGraphile" && oursBody !== theirBody) {
          let at = 0;
          while (oursBody[at] === theirBody[at]) at++;
          const around = (body: string) => body.slice(Math.max(0, at - 200), at + 200);
          throw new Error(
            `${workload.name}: the ${comparison.reference}'s body differs from ours at ${at}\nours:   ${around(oursBody)}\ntheirs: ${around(theirBody)}`,
          );
        }
      }
      const oursStatements = await statementsPerRequest(oursStatementCounter(ours.url), ours.url, workload.request);
      const results = await pairedRuns(ours, workload, references);
      for (const [index, comparison] of workload.comparisons.entries()) {
        const row: WorkloadResult = {
          workload: workload.name,
          reference: comparison.reference,
          target: comparison.target,
          bytes: Buffer.byteLength(oursText),
          oursStatements,
          theirsStatements:
            comparison.reference === "baseline"
              ? await statementsPerRequest(baselineStatementCounter(baseline.url), baseline.url, comparison.request)
              : undefined,
          ...(results[index] as (typeof results)[number]),
        };
        rows.push(row);
        process.stdout.write(`${table([row]).split("\n").at(-1)}\n`);
      }
    }

    const oursLoadedRss = rssAfterLatestLoad.get(ours) ?? Number.NaN;
    const postgraphileLoadedRss = rssAfterLatestLoad.get(postgraphile) ?? Number.NaN;
    // Ours was loaded last: once it has idled this long, so has every reference.
    await new Promise((resolve) => setTimeout(resolve, settleMilliseconds));
    const oursSettledRss = rssMegabytes(ours);
    const postgraphileSettledRss = rssMegabytes(postgraphile);
    const embedded = await embeddedFootprint();
    const jobStart = jobStartLatency();
    const nestedOnPostgres = rows.find((row) => row.workload.startsWith("1."));
    const footprint: FootprintRow[] = [
      {
        what: "RSS right after its last load (PostgreSQL)",
        ours: megabytes(oursLoadedRss),
        reference: `PostGraphile ${megabytes(postgraphileLoadedRss)}`,
        target: "≤ PostGraphile's",
        met: oursLoadedRss <= postgraphileLoadedRss,
      },
      {
        what: `RSS after the load, settled (${settleMilliseconds / 1000} s idle or more; PostgreSQL)`,
        ours: megabytes(oursSettledRss),
        reference: `PostGraphile ${megabytes(postgraphileSettledRss)}`,
        target: "≤ PostGraphile's",
        met: oursSettledRss <= postgraphileSettledRss,
      },
      {
        what: "idle RSS a second after start (PostgreSQL)",
        ours: megabytes(oursIdleRss),
        reference: `PostGraphile ${megabytes(postgraphileIdleRss)}`,
        target: "≤ 150 MB",
        met: oursIdleRss <= 150,
      },
      {
        what: "RSS a second after the first start on an empty directory (embedded PGlite)",
        ours: megabytes(embedded.firstStartRss),
        reference: "-",
        target: "≤ 300 MB",
        met: embedded.firstStartRss <= 300,
      },
      {
        what: "nested read on embedded PGlite holding the bench's data (one round)",
        ours: `${embedded.nestedRead.requestsPerSecond.toFixed(0)} req/s, p50 ${embedded.nestedRead.p50} ms; RSS after ${megabytes(embedded.rssAfterNestedRead)}`,
        reference: nestedOnPostgres
          ? `PostgreSQL: ${nestedOnPostgres.ours.requestsPerSecond.toFixed(0)} req/s, p50 ${nestedOnPostgres.ours.p50} ms`
          : "-",
        target: "-",
        met: undefined,
      },
      {
        what: "idle RSS a second after start (embedded PGlite)",
        ours: megabytes(embedded.idleRss),
        reference: "-",
        target: "≤ 300 MB",
        met: embedded.idleRss <= 300,
      },
      {
        what: "start to healthy, existing database (PostgreSQL)",
        ours: seconds(ours.startMilliseconds),
        reference: `PostGraphile ${seconds(postgraphile.startMilliseconds)}`,
        target: "≤ 1.5 s",
        met: ours.startMilliseconds <= 1500,
      },
      {
        what: "start to healthy, existing database (embedded PGlite)",
        ours: seconds(embedded.restart),
        reference: `first start on an empty directory: ${seconds(embedded.firstStart)}`,
        target: "≤ 1.5 s",
        met: embedded.restart <= 1500,
      },
    ];

    const summary = [
      `Run of ${new Date().toISOString().slice(0, 10)} on ${await machine(admin)}; ${connections} connections; per workload ${rounds} rounds of ${duration} s on ours then ${duration} s on each reference, each after a warm-up; each row shows the round with the median ratio of its target's metric (throughput where it has none).`,
      `Data: ${benchShape.sites} sites x ${benchShape.sectionsPerSite} sections x ${benchShape.siteSpacesPerSection} site spaces, ${benchShape.spaces} spaces, ${benchShape.changeRequests} open change requests (and as many closed) in one space; ${benchShape.otherOrganizations} more organizations of the same shape beside it.`,
      "Ours runs as `npm start` starts it (NODE_ENV=production, info logs, rate limiting on with a limit never reached, a caller's share of 2 requests at a time with the others waiting, the sheds that answer 503 at once off); PostGraphile v4.14.1 as `postgraphile -c <db> --schema public --disable-default-mutations --disable-query-log`, with no authentication of its own.",
      "",
      table(rows),
      "",
      ...(freshRows.length > 0
        ? [
            "The workloads that read the database, against PostGraphile and the baseline on a database freshly loaded and never analyzed, each server started right after the load (as after a restore):",
            "",
            table(freshRows),
            "",
          ]
        : []),
      footprintTable(footprint),
      "",
      `Job start latency (\`npm run bench:jobs\`: from the end of the adding transaction to the handler's start; target p99 ≤ 50 ms on PostgreSQL, one at a time):`,
      "",
      "```text",
      ...jobStart.lines,
      "```",
      "",
      explainSummary(explain),
    ].join("\n");
    process.stdout.write(`\n${summary}\n`);
    if (!flags.only && !flags["no-docs"]) replaceBetweenMarkers("results", summary);
    const failed = [...rows, ...freshRows].filter((row) => row.errors > 0);
    if (failed.length > 0) throw new Error(`requests failed: ${failed.map((row) => row.workload).join(", ")}`);
    const missed = [
      ...[...rows, ...freshRows]
        .filter((row) => targetMet(row) === false)
        .map((row) => `${row.workload} vs ${row.reference}`),
      ...footprint.filter((row) => row.met === false).map((row) => row.what),
      ...(jobStart.postgresP99 <= 50 ? [] : ["job start latency p99 on PostgreSQL"]),
    ];
    if (missed.length > 0) process.stdout.write(`targets missed: ${missed.join("; ")}\n`);
    if (missingIndexes(explain).length > 0) throw new Error("statements scan large tables without an index");
  } finally {
    await Promise.all(servers.map(stopServer));
    await bench.drop();
    await admin.end();
  }
}

/** Requests per second the server sustains on `request`, from a short run. */
async function probe(server: Server, request: BenchRequest): Promise<number> {
  return (await load(server, request)).requestsPerSecond;
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
