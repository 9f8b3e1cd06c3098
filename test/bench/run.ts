import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { cpus, totalmem } from "node:os";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import pg from "pg";
import { openDatabase } from "../../src/db/database.ts";
import { applyMigrations } from "../../src/db/migrate.ts";
import { type ExplainReport, explainWorkloads, missingIndexes, seqScanRowThreshold } from "./explain.ts";
import { seedBenchData } from "./seed.ts";
import { soak, soakTable } from "./soak.ts";
import { type LoadResult, table, targetMet, targetRatio, type WorkloadResult } from "./stats.ts";
import { type BenchRequest, benchShape, type Workload, workloads } from "./workloads.ts";

// `npm run bench`: our server, a hand-written node:http + pg baseline and bare graphql-yoga on one generated
// PostgreSQL dataset, each in its own process, driven in turn by autocannon from this process. The results table
// goes into README.md between its bench markers. `-- --soak` runs the 5-minute soak on the nested read instead.
const { values: flags } = parseArgs({
  options: {
    seconds: { type: "string", default: process.env.BENCH_SECONDS ?? "10" },
    connections: { type: "string", default: process.env.BENCH_CONNECTIONS ?? "10" },
    /** Paired runs (ours, then the reference) per workload; the table shows the one with the median ratio. */
    rounds: { type: "string", default: process.env.BENCH_ROUNDS ?? "3" },
    /** Only the workloads whose name contains this (the README is then left as it is). */
    only: { type: "string" },
    soak: { type: "boolean", default: false },
    "soak-seconds": { type: "string", default: "300" },
    /** Soak rate in requests per second; by default half of what a short probe measures. */
    rate: { type: "string" },
    "no-readme": { type: "boolean", default: false },
  },
});
const serverUrl = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const duration = Number(flags.seconds);
const connections = Number(flags.connections);
const rounds = Number(flags.rounds);

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

interface Server {
  url: string;
  process: ChildProcess;
}

/** Node's arguments in `npm start` (`node <flags> --import tsx src/main.ts`): ours runs as it is started. */
function npmStartArguments(): string[] {
  const { scripts } = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
  const [command, ...args] = String(scripts.start).split(/\s+/);
  if (command !== "node") throw new Error(`npm start is not a node command: ${scripts.start}`);
  return args;
}

async function startServer(nodeArguments: string[], healthPath: string, env: Record<string, string>): Promise<Server> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, nodeArguments, {
    // One public URL for all, so the URLs inside the bodies match.
    env: { ...process.env, ...env, PORT: String(port), PUBLIC_URL: "https://docs.bench.test" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (let attempt = 0; attempt < 600; attempt++) {
    if (child.exitCode !== null) throw new Error(`${nodeArguments.join(" ")} exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}${healthPath}`)).ok) return { url, process: child };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${nodeArguments.join(" ")} did not become healthy`);
}

async function send(url: string, request: BenchRequest): Promise<string> {
  const response = await fetch(`${url}${request.path}`, request);
  const body = await response.text();
  if (!response.ok) throw new Error(`${request.method} ${request.path} answered ${response.status}: ${body}`);
  return body;
}

async function load(url: string, request: BenchRequest): Promise<LoadResult> {
  const options = {
    url: `${url}${request.path}`,
    method: request.method as "GET" | "POST",
    headers: request.headers,
    body: request.body,
    connections,
  };
  await autocannon({ ...options, duration: Math.max(2, Math.round(duration / 3)) });
  const result = await autocannon({ ...options, duration });
  return {
    p50: result.latency.p50,
    p99: result.latency.p99,
    requestsPerSecond: result.requests.average,
    errors: result.errors + result.non2xx,
  };
}

/**
 * `rounds` paired runs of ours and the reference, back to back so both see the same machine: the machine is shared
 * and one run's ratio moves by a third, the median of several much less.
 */
async function pairedRuns(oursUrl: string, referenceUrl: string, workload: Workload) {
  const pairs: { ours: LoadResult; theirs: LoadResult; ratio: number }[] = [];
  for (let round = 0; round < rounds; round++) {
    const oursLoad = await load(oursUrl, workload.request);
    const theirs = await load(referenceUrl, workload.request);
    pairs.push({ ours: oursLoad, theirs, ratio: targetRatio(workload.target, oursLoad, theirs) });
  }
  const sorted = [...pairs].sort((a, b) => a.ratio - b.ratio);
  const median = sorted[Math.floor(sorted.length / 2)] as (typeof pairs)[number];
  return {
    ours: median.ours,
    theirs: median.theirs,
    roundRatios: pairs.map((pair) => pair.ratio),
    errors: pairs.reduce((sum, pair) => sum + pair.ours.errors + pair.theirs.errors, 0),
  };
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

const oursStatementCounter = (url: string) => async () => {
  const text = await (await fetch(`${url}/metrics`)).text();
  return Number(/^db_sql_statements_total (\d+)/m.exec(text)?.[1]);
};
const baselineStatementCounter = (url: string) => async () => Number(await (await fetch(`${url}/statements`)).text());

async function machine(admin: pg.Client): Promise<string> {
  const version = (await admin.query<{ server_version: string }>("SHOW server_version")).rows[0]?.server_version;
  const cpu = cpus();
  return `${cpu.length} cores (${cpu[0]?.model.trim()}), ${Math.round(totalmem() / 1024 ** 3)} GB, Node ${process.version}, PostgreSQL ${version}`;
}

function replaceBetweenMarkers(name: string, content: string) {
  const path = new URL("../../README.md", import.meta.url);
  const readme = readFileSync(path, "utf8");
  const start = `<!-- bench:${name}:start -->`;
  const end = `<!-- bench:${name}:end -->`;
  const from = readme.indexOf(start);
  const to = readme.indexOf(end);
  if (from < 0 || to < from) throw new Error(`README.md lacks the ${start} ... ${end} markers`);
  writeFileSync(path, `${readme.slice(0, from + start.length)}\n${content}\n${readme.slice(to)}`);
}

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

async function main() {
  const database = `bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  const databaseUrl = url.toString();
  const servers: Server[] = [];
  try {
    const db = await openDatabase({ kind: "postgres", url: databaseUrl });
    await applyMigrations(db);
    const data = await seedBenchData(db, benchShape);
    await db.withRawConnection((connection) => connection.exec("ANALYZE"));
    await db.close();
    const selected = workloads(data).filter((workload) => !flags.only || workload.name.includes(flags.only));

    const ours = await startServer(npmStartArguments(), "/healthz", {
      DATABASE_URL: databaseUrl,
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      NODE_ENV: "production",
      // One caller sends thousands of requests a minute here: over any sensible rate limit.
      RATE_LIMIT_TOKEN: "0",
      RATE_LIMIT_ANONYMOUS: "0",
      // No background polling beside the measured requests (and in the statement counts).
      RUN_JOBS: "false",
    });
    servers.push(ours);

    if (flags.soak) {
      const [nested] = workloads(data);
      if (!nested) throw new Error("no nested workload");
      const rate = flags.rate
        ? Number(flags.rate)
        : Math.max(1, Math.floor((await probe(ours.url, nested.request)) / 2));
      const seconds = Number(flags["soak-seconds"]);
      process.stdout.write(`soak: ${rate} req/s for ${seconds}s after a 1-minute warm-up\n`);
      const report = await soak(ours.url, nested.request, rate, seconds);
      const text = `Soak of ${new Date().toISOString().slice(0, 10)} on ${await machine(admin)}:\n\n${soakTable(report)}`;
      process.stdout.write(`\n${text}\n`);
      if (!flags["no-readme"]) replaceBetweenMarkers("soak", text);
      return;
    }

    const baseline = await startServer(["--import", "tsx", "test/bench/baseline.ts"], "/healthz", {
      DATABASE_URL: databaseUrl,
    });
    const bareYoga = await startServer(["--import", "tsx", "test/bench/bare-yoga.ts"], "/health", {});
    servers.push(baseline, bareYoga);

    const explain = await explainWorkloads(databaseUrl, selected);
    process.stdout.write(`${explainSummary(explain)}\n`);

    const rows: WorkloadResult[] = [];
    for (const workload of selected) {
      const reference = workload.reference === "baseline" ? baseline : bareYoga;
      const [oursBody, theirBody] = await Promise.all(
        [ours, reference].map((server) => send(server.url, workload.request)),
      );
      if (oursBody !== theirBody) {
        let at = 0;
        while (oursBody?.[at] === theirBody?.[at]) at++;
        const around = (body = "") => body.slice(Math.max(0, at - 200), at + 200);
        throw new Error(
          `${workload.name}: the ${workload.reference}'s body differs from ours at ${at}\nours:   ${around(oursBody)}\ntheirs: ${around(theirBody)}`,
        );
      }
      const row: WorkloadResult = {
        workload: workload.name,
        reference: workload.reference,
        target: workload.target,
        bytes: Buffer.byteLength(oursBody as string),
        oursStatements: await statementsPerRequest(oursStatementCounter(ours.url), ours.url, workload.request),
        theirsStatements:
          workload.reference === "baseline"
            ? await statementsPerRequest(baselineStatementCounter(baseline.url), baseline.url, workload.request)
            : undefined,
        ...(await pairedRuns(ours.url, reference.url, workload)),
      };
      rows.push(row);
      process.stdout.write(`${table([row]).split("\n").at(-1)}\n`);
    }
    const summary = [
      `Run of ${new Date().toISOString().slice(0, 10)} on ${await machine(admin)}; ${connections} connections; per workload ${rounds} rounds of ${duration} s on ours then ${duration} s on the reference, each after a warm-up; the table shows the round with the median target ratio.`,
      `Data: ${benchShape.sites} sites x ${benchShape.sectionsPerSite} sections x ${benchShape.siteSpacesPerSection} site spaces, ${benchShape.spaces} spaces, ${benchShape.changeRequests} open change requests (and as many closed) in one space; ${benchShape.otherOrganizations} more organizations of the same shape beside it.`,
      "",
      table(rows),
      "",
      explainSummary(explain),
    ].join("\n");
    process.stdout.write(`\n${summary}\n`);
    if (!flags.only && !flags["no-readme"]) replaceBetweenMarkers("results", summary);
    const failed = rows.filter((row) => row.errors > 0);
    if (failed.length > 0) throw new Error(`requests failed: ${failed.map((row) => row.workload).join(", ")}`);
    const missed = rows.filter((row) => !targetMet(row)).map((row) => row.workload);
    if (missed.length > 0) process.stdout.write(`targets missed: ${missed.join("; ")}\n`);
    if (missingIndexes(explain).length > 0) throw new Error("statements scan large tables without an index");
  } finally {
    for (const server of servers) server.process.kill("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 500));
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
  }
}

/** Requests per second the server sustains on `request`, from a short run. */
async function probe(url: string, request: BenchRequest): Promise<number> {
  return (await load(url, request)).requestsPerSecond;
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
