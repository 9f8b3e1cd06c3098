import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import autocannon from "autocannon";
import pg from "pg";
import { openDatabase } from "../../src/db/database.ts";
import { applyMigrations } from "../../src/db/migrate.ts";
import { seedBenchData } from "./seed.ts";
import { type LoadResult, table } from "./stats.ts";
import { benchShape, workloads } from "./workloads.ts";

// `npm run bench`: our server and a hand-written node:http + pg baseline on one generated PostgreSQL dataset,
// each in its own process, driven in turn by autocannon from this process.
const serverUrl = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const duration = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitForHealth(url: string, child: ChildProcess): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt++) {
    if (child.exitCode !== null) throw new Error(`${url} exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not become healthy`);
}

function start(script: string, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", script], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
}

async function load(
  name: string,
  url: string,
  request: { method: string; path: string; headers: Record<string, string>; body?: string },
): Promise<LoadResult> {
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
    name,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requestsPerSecond: result.requests.average,
    errors: result.errors + result.non2xx,
  };
}

async function main() {
  const database = `bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  const databaseUrl = url.toString();
  const children: ChildProcess[] = [];
  try {
    const db = await openDatabase({ kind: "postgres", url: databaseUrl });
    await applyMigrations(db);
    const data = await seedBenchData(db, benchShape);
    await db.close();

    const [oursPort, baselinePort] = [await freePort(), await freePort()];
    const ours = `http://127.0.0.1:${oursPort}`;
    const baseline = `http://127.0.0.1:${baselinePort}`;
    children.push(
      start("src/main.ts", {
        DATABASE_URL: databaseUrl,
        PORT: String(oursPort),
        HOST: "127.0.0.1",
        LOG_LEVEL: "warn",
        NODE_ENV: "production",
        // One token sends thousands of requests a minute here: over any sensible rate limit.
        RATE_LIMIT_TOKEN: "0",
      }),
    );
    children.push(start("test/bench/baseline.ts", { DATABASE_URL: databaseUrl, PORT: String(baselinePort) }));
    await Promise.all([
      waitForHealth(ours, children[0] as ChildProcess),
      waitForHealth(baseline, children[1] as ChildProcess),
    ]);

    const rows = [];
    for (const workload of workloads(data)) {
      const [oursBody = "", baselineBody = ""] = await Promise.all(
        [ours, baseline].map(async (base) => {
          const response = await fetch(`${base}${workload.request.path}`, workload.request);
          return response.text();
        }),
      );
      if (oursBody !== baselineBody) {
        throw new Error(
          `${workload.name}: the baseline's body differs from ours\nours:     ${oursBody.slice(0, 400)}\nbaseline: ${baselineBody.slice(0, 400)}`,
        );
      }
      rows.push({
        workload: workload.name,
        ours: await load("ours", ours, workload.request),
        baseline: await load("baseline", baseline, workload.request),
      });
    }
    process.stdout.write(
      `\n${benchShape.sites} sites x ${benchShape.sectionsPerSite} sections x ${benchShape.siteSpacesPerSection} site spaces; ${connections} connections, ${duration}s per run\n\n${table(rows)}\n`,
    );
    const failed = rows.filter((row) => row.ours.errors > 0 || row.baseline.errors > 0);
    if (failed.length > 0) throw new Error(`requests failed: ${failed.map((row) => row.workload).join(", ")}`);
  } finally {
    for (const child of children) child.kill("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 500));
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
