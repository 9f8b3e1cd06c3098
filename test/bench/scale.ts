import { execFile } from "node:child_process";
import { loadavg } from "node:os";
import { parseArgs, promisify } from "node:util";
import { Redis } from "ioredis";
import pg from "pg";
import { openDatabase } from "../../src/db/database.ts";
import { createApiToken, createUser } from "../../src/modules/user/user.service.ts";
import { newId } from "../../src/platform/ids.ts";
import {
  benchSecretsKey,
  createBenchDatabase,
  load,
  machine,
  replaceBetweenMarkers,
  rssMegabytes,
  type Server,
  send,
  startOurs,
  startOursClustered,
  stopServer,
} from "./servers.ts";
import { measureSizes } from "./sizes.ts";
import type { LoadResult } from "./stats.ts";
import { type Workload, workloads } from "./workloads.ts";

// `npm run bench:scale`: 1, 2 and 3 processes of ours (each as `npm start` runs it) behind one port through Node's
// cluster, on one PostgreSQL database and one Redis, under the bench's nested read and small reads; then, on three
// processes each on its own port, the two things instances share: a rate limit counted in Redis (the limit's next
// request is refused whichever instance serves it) and token revocation (refused by every instance within a second).
// The results go into docs/performance.md between its bench:scale markers.
// `npm run bench:scale -- --sizes 1,10` measures instead one process over one organization at each size (sizes.ts).
const { values: flags } = parseArgs({
  options: {
    seconds: { type: "string", default: process.env.BENCH_SECONDS ?? "10" },
    connections: { type: "string", default: process.env.BENCH_CONNECTIONS ?? "10" },
    /** Rounds over every process count; the table shows each workload's median round by throughput. */
    rounds: { type: "string", default: process.env.BENCH_ROUNDS ?? "1" },
    processes: { type: "string", default: "1,2,3" },
    /** Size factors of the organization (1x = 200 spaces of 50 pages): measures sizes instead of processes. */
    sizes: { type: "string" },
    /** Leave docs/performance.md as it is. */
    "no-docs": { type: "boolean", default: false },
  },
});
const serverUrl = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const loadOptions = { seconds: Number(flags.seconds), connections: Number(flags.connections) };
const rounds = Number(flags.rounds);
const processCounts = flags.processes.split(",").map(Number);
/** The nested read and the two small reads. */
const measuredWorkloads = ["1.", "3a.", "3b."];
/** The low limit of the guarantees' check. */
const rateLimit = 10;

interface Measurement extends LoadResult {
  /** The machine's 1-minute load average at the end of the run: other work on the cores shows in it. */
  loadAverage: number;
}

interface ScaleRow {
  workload: string;
  processes: number;
  result: Measurement;
  roundsRequestsPerSecond: number[];
}

async function measure(databaseUrl: string, selected: Workload[]) {
  const measured = new Map<string, Measurement[]>();
  const rss = new Map<number, number[]>();
  for (let round = 0; round < rounds; round++) {
    for (const processes of processCounts) {
      const server = await startOursClustered(processes, { DATABASE_URL: databaseUrl, REDIS_URL: redisUrl });
      try {
        for (const workload of selected) {
          await send(server.url, workload.request);
          const result = {
            ...(await load(server.url, workload.request, loadOptions)),
            loadAverage: loadavg()[0] as number,
          };
          const key = `${workload.name}|${processes}`;
          measured.set(key, [...(measured.get(key) ?? []), result]);
          process.stdout.write(
            `${workload.name}, ${processes} process(es): ${result.requestsPerSecond.toFixed(0)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms\n`,
          );
        }
        rss.set(processes, [...(rss.get(processes) ?? []), rssMegabytes(server)]);
      } finally {
        await stopServer(server);
      }
    }
  }
  const rows: ScaleRow[] = [];
  for (const workload of selected) {
    for (const processes of processCounts) {
      const results = measured.get(`${workload.name}|${processes}`) ?? [];
      const sorted = [...results].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond);
      rows.push({
        workload: workload.name,
        processes,
        result: sorted[Math.floor(sorted.length / 2)] as Measurement,
        roundsRequestsPerSecond: results.map((result) => result.requestsPerSecond),
      });
    }
  }
  return { rows, rss };
}

function scaleTable(rows: ScaleRow[], rss: Map<number, number[]>): string {
  const lines = [
    "| workload | processes | p50 / p99 ms | req/s | req/s per round | vs 1 process | load average | errors |",
    "|---|---|---|---|---|---|---|---|",
  ];
  for (const row of rows) {
    const single = rows.find((each) => each.workload === row.workload && each.processes === 1);
    const speedUp = single ? `${(row.result.requestsPerSecond / single.result.requestsPerSecond).toFixed(2)}x` : "-";
    lines.push(
      `| ${row.workload} | ${row.processes} | ${row.result.p50} / ${row.result.p99} | ${row.result.requestsPerSecond.toFixed(0)} | ${row.roundsRequestsPerSecond.map((value) => value.toFixed(0)).join(", ")} | ${speedUp} | ${row.result.loadAverage.toFixed(1)} | ${row.result.errors} |`,
    );
  }
  const memory = [...rss].map(([processes, values]) => `${processes}: ${Math.max(...values).toFixed(0)} MB`);
  return `${lines.join("\n")}\n\nRSS of the server processes together after the load (the largest over the rounds), by process count: ${memory.join("; ")}.`;
}

/** Status and remaining budget of one `GET /v1/orgs` on `server`. */
async function call(server: Server, token: string): Promise<{ status: number; remaining: string | null }> {
  const response = await fetch(`${server.url}/v1/orgs`, { headers: { authorization: `Bearer ${token}` } });
  await response.arrayBuffer();
  return { status: response.status, remaining: response.headers.get("ratelimit-remaining") };
}

/** Milliseconds from now until `server` refuses `token` with 401, polled every 10 ms for at most 5 s. */
async function refusedAfter(server: Server, token: string): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < 5000) {
    if ((await call(server, token)).status === 401) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`${server.url} still accepts a token revoked 5 s ago`);
}

async function guarantees(databaseUrl: string): Promise<string[]> {
  const env = {
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    RATE_LIMIT_USER: String(rateLimit),
    // An hour's window: the check does not straddle two windows; anonymous answers (a revoked token) are not limited.
    RATE_LIMIT_WINDOW_SECONDS: "3600",
    RATE_LIMIT_ANONYMOUS: "0",
  };
  const instances: Server[] = [];
  const db = await openDatabase({ kind: "postgres", url: databaseUrl });
  try {
    for (let index = 0; index < 3; index++) instances.push(await startOurs(env));
    // Tokens of fresh users: limits count per user, so their counts in Redis are this check's own.
    const newToken = async () => {
      const user = await createUser(db.prisma, { email: `scale-${newId("User")}@bench.test`, displayName: "Scale" });
      return createApiToken(db.prisma, user.id, { label: "scale check" });
    };
    const lines: string[] = [];

    const limited = await newToken();
    const answers = [];
    for (let index = 0; index < rateLimit; index++) {
      answers.push(await call(instances[index % instances.length] as Server, limited.token));
    }
    const over = [];
    for (const instance of instances) over.push(await call(instance, limited.token));
    const remaining = answers.map((answer) => answer.remaining).join(", ");
    if (answers.some((answer) => answer.status !== 200) || over.some((answer) => answer.status !== 429)) {
      throw new Error(`rate limit not shared: ${JSON.stringify({ answers, over })}`);
    }
    lines.push(
      `Rate limit ${rateLimit} per user, 3 instances on one Redis: requests 1-${rateLimit} sent to instances 1, 2, 3, 1, ... answered 200 (RateLimit-Remaining ${remaining}); request ${rateLimit + 1} answered 429 on each of the three instances.`,
    );

    const burst = await newToken();
    const statuses = await Promise.all(
      Array.from({ length: rateLimit * 3 }, (_, index) =>
        call(instances[index % instances.length] as Server, burst.token),
      ),
    );
    const accepted = statuses.filter((answer) => answer.status === 200).length;
    if (accepted !== rateLimit)
      throw new Error(`${accepted} concurrent requests accepted over a limit of ${rateLimit}`);
    lines.push(
      `${rateLimit * 3} concurrent requests of one user spread over the 3 instances: ${accepted} answered 200, ${statuses.length - accepted} 429.`,
    );

    for (const how of ["CLI", "GraphQL"] as const) {
      const revoked = await newToken();
      // Every instance has verified (and cached) the token before it is revoked.
      for (const instance of instances) {
        if ((await call(instance, revoked.token)).status !== 200) throw new Error("a fresh token was refused");
      }
      if (how === "CLI") {
        await promisify(execFile)(
          "npm",
          ["run", "--silent", "cli", "--", "token", "revoke", "--token-id", revoked.apiToken.id],
          {
            env: { ...process.env, DATABASE_URL: databaseUrl, SECRETS_KEY: benchSecretsKey },
          },
        );
      } else {
        await send(instances[0]?.url as string, {
          method: "POST",
          path: "/graphql",
          headers: { authorization: `Bearer ${revoked.token}`, "content-type": "application/json" },
          body: JSON.stringify({
            query: "mutation($id: ID!) { revokeAPIToken(input: { id: $id }) { apiToken { id } } }",
            variables: { id: revoked.apiToken.id },
          }),
        });
      }
      const delays = await Promise.all(instances.map((instance) => refusedAfter(instance, revoked.token)));
      if (delays.some((delay) => delay > 1000)) throw new Error(`revocation took ${delays.join(", ")} ms`);
      lines.push(
        `A cached token revoked ${how === "CLI" ? "by `npm run cli -- token revoke`" : "through GraphQL (revokeAPIToken) on instance 1"}: refused (401) by instances 1, 2, 3 after ${delays.map((delay) => delay.toFixed(0)).join(", ")} ms.`,
      );
    }
    return lines;
  } finally {
    await Promise.all(instances.map(stopServer));
    await db.close();
  }
}

async function assertRedisReachable() {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    throw new Error(`Redis at ${redisUrl} (REDIS_URL) cannot be reached: ${String(error)}`);
  } finally {
    redis.disconnect();
  }
}

async function main() {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  if (flags.sizes) {
    try {
      await measureSizes(admin, serverUrl, flags.sizes.split(",").map(Number), loadOptions, flags["no-docs"]);
    } finally {
      await admin.end();
    }
    return;
  }
  await assertRedisReachable();
  const bench = await createBenchDatabase(admin, serverUrl);
  try {
    const selected = workloads(bench.data).filter((workload) =>
      measuredWorkloads.some((prefix) => workload.name.startsWith(prefix)),
    );
    // A first start applies nothing new but may create demo data: the cluster's workers then start side by side.
    await stopServer(await startOurs({ DATABASE_URL: bench.url }));
    const { rows, rss } = await measure(bench.url, selected);
    const checks = await guarantees(bench.url);
    const summary = [
      `Run of ${new Date().toISOString().slice(0, 10)} on ${await machine(admin)}; Redis at ${new URL(redisUrl).host}; ${loadOptions.connections} connections from one autocannon process; per process count and workload a warm-up then ${loadOptions.seconds} s, ${rounds} round(s) (the median round by throughput is shown); the load average is the machine's over the minute before each run ended (2 would be both cores busy).`,
      "Each process runs as `npm start` starts it (NODE_ENV=production, info logs, rate limiting on in Redis with a limit never reached, job runner on), all behind one port through Node's cluster (test/bench/cluster.ts: the primary accepts connections and hands them to the workers in turn). autocannon, PostgreSQL, Redis and the servers share the same cores.",
      "",
      scaleTable(rows, rss),
      "",
      ...checks.map((line) => `- ${line}`),
    ].join("\n");
    process.stdout.write(`\n${summary}\n`);
    if (!flags["no-docs"]) replaceBetweenMarkers("scale", summary);
    if (rows.some((row) => row.result.errors > 0)) throw new Error("requests failed");
  } finally {
    await bench.drop();
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
