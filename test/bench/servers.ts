import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import type pg from "pg";
import { type App, createApp } from "../../src/app/app.ts";
import { type Database, openDatabase } from "../../src/db/database.ts";
import { applyMigrations } from "../../src/db/migrate.ts";
import { startEventBus } from "../../src/events/bus.ts";
import { createRateLimiter } from "../../src/http/rate-limit.ts";
import { loadConfig } from "../../src/platform/config.ts";
import { createLogger } from "../../src/platform/logger.ts";
import { freePort } from "../helpers/server-process.ts";
import { type BenchData, seedBenchData } from "./seed.ts";
import type { LoadResult } from "./stats.ts";
import { type BenchRequest, benchShape } from "./workloads.ts";

// What the bench scripts share: servers started in their own processes, autocannon runs, the generated database,
// the machine's description and docs/performance.md's marked sections.

export interface Server {
  url: string;
  process: ChildProcess;
  /** The processes that serve requests: the server's own, or a cluster's workers. */
  servingPids: number[];
  /** From spawning the process to its first healthy answer. */
  startMilliseconds: number;
}

export interface StartOptions {
  /**
   * The process is a cluster's primary (test/bench/cluster.ts): it is ready once it sends the pids of its workers,
   * all listening, over the IPC channel.
   */
  cluster?: boolean;
}

/** How `npm start` runs node: its environment assignments and node's arguments (`VAR=value ... node <flags> <entry>`). */
interface StartCommand {
  env: Record<string, string>;
  args: string[];
}

const environmentAssignment = /^[A-Z_][A-Z0-9_]*=/;

/** `npm start`'s command as package.json says it: ours runs as it is started. */
export function npmStartCommand(): StartCommand {
  const { scripts } = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
  const words = String(scripts.start).split(/\s+/);
  const commandAt = words.findIndex((word) => !environmentAssignment.test(word));
  const env = Object.fromEntries(
    words.slice(0, commandAt).map((word) => [word.slice(0, word.indexOf("=")), word.slice(word.indexOf("=") + 1)]),
  );
  // `exec`: the shell npm runs the script in becomes node, so npm's signals reach the server.
  const [command, ...args] = words.slice(commandAt).filter((word, at) => at > 0 || word !== "exec");
  if (command !== "node") throw new Error(`npm start is not a node command: ${scripts.start}`);
  return { env, args };
}

function clusterReady(child: ChildProcess): Promise<number[]> {
  return new Promise((resolve, reject) => {
    child.once("message", (message: { listening?: number[] }) =>
      message.listening ? resolve(message.listening) : reject(new Error(`unexpected message ${message}`)),
    );
    child.once("exit", (code) => reject(new Error(`the cluster exited with ${code} before listening`)));
  });
}

export async function startServer(
  nodeArguments: string[] | ((port: number) => string[]),
  health: string | BenchRequest,
  env: Record<string, string>,
  options: StartOptions = {},
): Promise<Server> {
  const healthRequest = typeof health === "string" ? { method: "GET", path: health, headers: {} } : health;
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const argumentList = typeof nodeArguments === "function" ? nodeArguments(port) : nodeArguments;
  const child = spawn(process.execPath, argumentList, {
    // One public URL for all, so the URLs inside the bodies match.
    env: { ...process.env, ...env, PORT: String(port), PUBLIC_URL: "https://docs.bench.test" },
    stdio: options.cluster ? ["ignore", "ignore", "inherit", "ipc"] : ["ignore", "ignore", "inherit"],
  });
  const servingPids = options.cluster ? await clusterReady(child) : [child.pid as number];
  for (let attempt = 0; attempt < 6000; attempt++) {
    if (child.exitCode !== null) throw new Error(`${argumentList.join(" ")} exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}${healthRequest.path}`, healthRequest)).ok) {
        return { url, process: child, servingPids, startMilliseconds: performance.now() - started };
      }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`${argumentList.join(" ")} did not become healthy`);
}

export async function stopServer(server: Server): Promise<void> {
  if (server.process.exitCode !== null) return;
  const exited = new Promise((resolve) => server.process.once("exit", resolve));
  server.process.kill("SIGTERM");
  await exited;
}

/** Resident memory of the processes serving requests, from /proc. */
export function rssMegabytes(server: Server): number {
  let kilobytes = 0;
  for (const pid of server.servingPids) {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    kilobytes += Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1]);
  }
  return kilobytes / 1024;
}

/** Idle memory is read a second after the start, once start-up garbage has had a chance to go. */
export async function idleRssMegabytes(server: Server): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 1000));
  return rssMegabytes(server);
}

/**
 * Node arguments for a look inside our server while a bench runs, from BENCH_SERVER_NODE_ARGS (e.g.
 * `--cpu-prof --cpu-prof-dir=/tmp/profile`; NODE_OPTIONS refuses --cpu-prof). None by default.
 */
function profilingArguments(): string[] {
  return process.env.BENCH_SERVER_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? [];
}

/** Our server as `npm start` runs it: production mode, info logs, rate limiting on with a limit never reached. */
export function startOurs(env: Record<string, string>): Promise<Server> {
  return startServer([...profilingArguments(), ...npmStartCommand().args], "/healthz", oursEnvironment(env));
}

/** `workers` processes of ours, each as `npm start` runs it, behind one port (Node's cluster, round robin). */
export function startOursClustered(workers: number, env: Record<string, string>): Promise<Server> {
  const primary = ["--import", "tsx", "test/bench/cluster.ts", String(workers), ...npmStartCommand().args];
  return startServer(primary, "/healthz", oursEnvironment(env), { cluster: true });
}

/** npm start's own environment assignments, the bench's settings, then the caller's. */
/** The SECRETS_KEY of our servers (required on PostgreSQL), and of the CLI run beside them. */
export const benchSecretsKey = "be4c4".padEnd(64, "0");

function oursEnvironment(env: Record<string, string>): Record<string, string> {
  return {
    ...npmStartCommand().env,
    HOST: "127.0.0.1",
    LOG_LEVEL: "info",
    NODE_ENV: "production",
    SECRETS_KEY: benchSecretsKey,
    RATE_LIMIT_USER: "1000000000",
    RATE_LIMIT_ANONYMOUS: "1000000000",
    // Throughput is compared with servers that never refuse: the sheds that answer 503 at once would turn a slow
    // answer into an error. A caller's share keeps npm start's default: the bench's one token gets two requests run
    // at a time and the others wait their turn (well within SHED_CALLER_WAIT_MS), never refused.
    SHED_MAX_IN_FLIGHT: "0",
    SHED_EVENT_LOOP_DELAY_MS: "0",
    ...env,
  };
}

/**
 * The limits our servers run with when the bench must meet the defaults (the abuse benches): the bench's servers run
 * without shedding and with a rate limit never reached, so these undo that, with the configuration's defaults or the
 * environment's values.
 */
export function configuredLimits(): Record<string, string> {
  const config = loadConfig({
    SHED_MAX_IN_FLIGHT: process.env.SHED_MAX_IN_FLIGHT,
    SHED_MAX_IN_FLIGHT_PER_CALLER: process.env.SHED_MAX_IN_FLIGHT_PER_CALLER,
    SHED_EVENT_LOOP_DELAY_MS: process.env.SHED_EVENT_LOOP_DELAY_MS,
    RATE_LIMIT_USER: process.env.RATE_LIMIT_USER,
    RATE_LIMIT_ANONYMOUS: process.env.RATE_LIMIT_ANONYMOUS,
    // Given, so that reading the configuration writes no key file.
    SECRETS_KEY: "0".repeat(64),
  });
  return {
    SHED_MAX_IN_FLIGHT: String(config.shedMaxInFlight),
    SHED_MAX_IN_FLIGHT_PER_CALLER: String(config.shedMaxInFlightPerCaller),
    SHED_EVENT_LOOP_DELAY_MS: String(config.shedEventLoopDelayMs),
    RATE_LIMIT_USER: String(config.rateLimitUser),
    RATE_LIMIT_ANONYMOUS: String(config.rateLimitAnonymous),
  };
}

export async function send(url: string, request: BenchRequest): Promise<string> {
  const response = await fetch(`${url}${request.path}`, request);
  const body = await response.text();
  // GraphQL servers answer errors with 200: a workload that errors would measure nothing.
  if (!response.ok || body.startsWith('{"errors"') || body.includes('"errors":[')) {
    throw new Error(`${request.method} ${request.path} answered ${response.status}: ${body.slice(0, 500)}`);
  }
  return body;
}

export interface LoadOptions {
  seconds: number;
  connections: number;
}

/** A warm-up of a third of the time, then the measured run. */
export async function load(url: string, request: BenchRequest, { seconds, connections }: LoadOptions) {
  const options = {
    url: `${url}${request.path}`,
    method: request.method as "GET" | "POST",
    headers: request.headers,
    body: request.body,
    connections,
  };
  await autocannon({ ...options, duration: Math.max(2, Math.round(seconds / 3)) });
  const result = await autocannon({ ...options, duration: seconds });
  return {
    p50: result.latency.p50,
    p99: result.latency.p99,
    requestsPerSecond: result.requests.average,
    errors: result.errors + result.non2xx,
  } satisfies LoadResult;
}

export async function machine(admin: pg.Client): Promise<string> {
  const version = (await admin.query<{ server_version: string }>("SHOW server_version")).rows[0]?.server_version;
  const cpu = cpus();
  return `${cpu.length} cores (${cpu[0]?.model.trim()}), ${Math.round(totalmem() / 1024 ** 3)} GB, Node ${process.version}, PostgreSQL ${version}`;
}

/** Writes `content` between `<!-- bench:<name>:start -->` and `<!-- bench:<name>:end -->` of docs/performance.md. */
export function replaceBetweenMarkers(name: string, content: string) {
  const path = new URL("../../docs/performance.md", import.meta.url);
  const page = readFileSync(path, "utf8");
  const start = `<!-- bench:${name}:start -->`;
  const end = `<!-- bench:${name}:end -->`;
  const from = page.indexOf(start);
  const to = page.indexOf(end);
  if (from < 0 || to < from) throw new Error(`docs/performance.md lacks the ${start} ... ${end} markers`);
  writeFileSync(path, `${page.slice(0, from + start.length)}\n${content}\n${page.slice(to)}`);
}

/** A new PGlite directory holding the bench's data (the embedded default's case), and a way to remove it. */
export async function createBenchDataDirectory(): Promise<{ dataDir: string; data: BenchData; remove(): void }> {
  const dataDir = mkdtempSync(join(tmpdir(), "bench-pglite-data-"));
  const remove = () => rmSync(dataDir, { recursive: true, force: true });
  try {
    const db = await openDatabase({ kind: "pglite", dataDir });
    await applyMigrations(db);
    const data = await seedBenchData(db, benchShape);
    await db.close();
    return { dataDir, data, remove };
  } catch (error) {
    remove();
    throw error;
  }
}

export interface BenchDatabase<Data = BenchData> {
  url: string;
  data: Data;
  drop(): Promise<void>;
}

/**
 * A new database on the PostgreSQL server of `serverUrl`, migrated, holding the bench's data (or what `seed`
 * writes); analyzed unless `analyze` is false (a freshly loaded database, as after a restore or a bulk load, before
 * autovacuum gets to it).
 */
export async function createBenchDatabase<Data = BenchData>(
  admin: pg.Client,
  serverUrl: string,
  {
    analyze = true,
    seed = (db) => seedBenchData(db, benchShape) as Promise<Data>,
  }: { analyze?: boolean; seed?: (db: Database) => Promise<Data> } = {},
): Promise<BenchDatabase<Data>> {
  const database = `bench_${Date.now()}_${analyze ? "analyzed" : "fresh"}`;
  await admin.query(`CREATE DATABASE ${database}`);
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  const drop = async () => void (await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));
  try {
    const db = await openDatabase({ kind: "postgres", url: url.toString() });
    await applyMigrations(db);
    const data = await seed(db);
    if (analyze) await db.withRawConnection((connection) => connection.exec("ANALYZE"));
    await db.close();
    return { url: url.toString(), data, drop };
  } catch (error) {
    await drop();
    throw error;
  }
}

/** The app in this process on the database at `url`, for counting what its requests send; `close` ends it. */
export async function inProcessApp(url: string): Promise<{ db: Database; app: App; close(): Promise<void> }> {
  const db = await openDatabase({ kind: "postgres", url });
  // No limits and no shedding: on a busy machine the event loop's delay would refuse the request to be counted.
  const config = loadConfig({
    LOG_LEVEL: "silent",
    RATE_LIMIT_TOKEN: "0",
    RATE_LIMIT_ANONYMOUS: "0",
    SHED_MAX_IN_FLIGHT: "0",
    SHED_EVENT_LOOP_DELAY_MS: "0",
  });
  const logger = createLogger("silent");
  const events = await startEventBus(db, logger);
  const app = createApp({ config, db, events, logger, rateLimiter: await createRateLimiter(config, logger) });
  return {
    db,
    app,
    async close() {
      await events.close();
      await db.close();
    },
  };
}
