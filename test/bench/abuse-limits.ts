import { execFileSync } from "node:child_process";
import autocannon from "autocannon";
import pg from "pg";
import { openDatabase } from "../../src/db/database.ts";
import { addMember, createApiToken, createUser } from "../../src/modules/user/user.service.ts";
import { configuredLimits, createBenchDatabase, machine, type Server, startOurs, stopServer } from "./servers.ts";
import { siteStructureQuery } from "./workloads.ts";

// An attacker's probes against the built server (dist/main.js, as `npm start` runs it) on PostgreSQL:
// 1. token minting: one user mints 120 tokens, then sends 200 requests within 2 s spread over all of them;
// 2. overload: the nested site-structure read at many times its capacity while a second client measures its own
//    small reads and /livez.
// Run: npx tsx test/bench/abuse-limits.ts   (BENCH_DATABASE_URL: the PostgreSQL server, default the local one;
// OVERLOAD_SECONDS, OVERLOAD_CONNECTIONS to change the overload run; SHED_MAX_IN_FLIGHT(_PER_CALLER), SHED_EVENT_LOOP_DELAY_MS
// for the server's thresholds, the defaults otherwise). The overload runs once without load shedding, once with it.
// Prints the figures; writes nothing.

const serverUrl = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const overloadSeconds = Number(process.env.OVERLOAD_SECONDS ?? 15);
const overloadConnections = Number(process.env.OVERLOAD_CONNECTIONS ?? 64);

const percentile = (values: number[], p: number) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
};
const ms = (value: number) => `${value.toFixed(1)} ms`;

async function graphql(server: Server, token: string, query: string, variables: Record<string, unknown> = {}) {
  const response = await fetch(`${server.url}/graphql`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as {
    data?: { createAPIToken?: { token?: string } | null } | null;
    errors?: { extensions?: { code?: string } }[];
  };
  return { status: response.status, body };
}

/** Probe 1: how far minting tokens stretches one user's allowances. */
async function tokenMintingProbe(databaseUrl: string) {
  const db = await openDatabase({ kind: "postgres", url: databaseUrl });
  const user = await createUser(db.prisma, { email: `minter-${Date.now()}@bench.test`, displayName: "Minter" });
  const { token } = await createApiToken(db.prisma, user.id, { label: "first" });
  await db.close();

  // Minting, with a rate limit that does not get in the way: only the token cap applies.
  const open = await startOurs({ DATABASE_URL: databaseUrl, RUN_JOBS: "false" });
  const tokens = [token];
  const refusals = new Map<string, number>();
  for (let index = 0; index < 120; index++) {
    const answer = await graphql(open, token, `mutation { createAPIToken(input: { label: "m${index}" }) { token } }`);
    const minted = answer.body.data?.createAPIToken?.token;
    if (minted) tokens.push(minted);
    else {
      const code = String(answer.body.errors?.[0]?.extensions?.code ?? answer.status);
      refusals.set(code, (refusals.get(code) ?? 0) + 1);
    }
  }
  await stopServer(open);
  console.log(
    `Token minting: 120 createAPIToken calls -> ${tokens.length - 1} tokens minted, refused: ${JSON.stringify(Object.fromEntries(refusals))}`,
  );

  // Spending: RATE_LIMIT_USER=5 per 60 s window, 200 requests within 2 s round-robin over every token.
  const limited = await startOurs({ DATABASE_URL: databaseUrl, RUN_JOBS: "false", RATE_LIMIT_USER: "5" });
  const statuses = new Map<number, number>();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: 200 }, async (_, index) => {
      const response = await fetch(`${limited.url}/v1/orgs`, {
        headers: { authorization: `Bearer ${tokens[index % tokens.length]}` },
      });
      await response.arrayBuffer();
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await stopServer(limited);
  console.log(
    `Rate limit per user (RATE_LIMIT_USER=5): 200 requests over ${tokens.length} tokens in ${seconds.toFixed(2)} s -> ${JSON.stringify(Object.fromEntries(statuses))}`,
  );
}

/** A client of its own beside the overload: one request at a time, each timed. */
async function secondClient(url: string, path: string, headers: Record<string, string>, until: () => boolean) {
  const served: number[] = [];
  const refused: number[] = [];
  let failed = 0;
  while (!until()) {
    const started = performance.now();
    try {
      const response = await fetch(`${url}${path}`, { headers });
      await response.arrayBuffer();
      (response.status === 200 ? served : refused).push(performance.now() - started);
      if (response.status !== 200 && response.status !== 503) failed++;
    } catch {
      failed++;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { served, refused, failed };
}

/** The second client: another person, an admin of the same organization (the spaces grant members nothing by default), with a token of their own. */
async function secondPerson(databaseUrl: string, organizationId: string): Promise<string> {
  const db = await openDatabase({ kind: "postgres", url: databaseUrl });
  try {
    const user = await createUser(db.prisma, { email: "second@bench.test", displayName: "Second Client" });
    await addMember(db.prisma, organizationId, user.id, "admin", new Date());
    return (await createApiToken(db.prisma, user.id, { label: "second client" })).token;
  } finally {
    await db.close();
  }
}

/**
 * Probe 2: the nested read far past capacity, with load shedding as `shedding` sets it, while another person of the
 * same organization reads a space.
 */
async function overloadProbe(
  label: string,
  shedding: Record<string, string>,
  databaseUrl: string,
  { organizationId, token, spaceId }: { organizationId: string; token: string; spaceId: string },
  secondToken: string,
) {
  console.log(`-- Overload probe, ${label}`);
  const server = await startOurs({ DATABASE_URL: databaseUrl, RUN_JOBS: "false", ...shedding });
  const nested = {
    url: `${server.url}/graphql`,
    method: "POST" as const,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ query: siteStructureQuery, variables: { id: organizationId } }),
  };
  // Capacity: a few connections, no shedding expected.
  await autocannon({ ...nested, connections: 4, duration: 3 });
  const capacity = await autocannon({ ...nested, connections: 4, duration: 5 });
  console.log(
    `Nested read capacity (4 connections): ${capacity.requests.average.toFixed(0)} req/s, p50 ${capacity.latency.p50} ms, p99 ${capacity.latency.p99} ms, non-2xx ${capacity.non2xx}`,
  );

  let done = false;
  const authorized = { authorization: `Bearer ${secondToken}` };
  const clients = Promise.all([
    secondClient(server.url, `/v1/spaces/${spaceId}`, authorized, () => done),
    secondClient(server.url, "/livez", {}, () => done),
  ]);
  const overload = await autocannon({ ...nested, connections: overloadConnections, duration: overloadSeconds });
  done = true;
  const [reads, livez] = await clients;
  await stopServer(server);

  const served = overload["2xx"];
  const shed = overload.non2xx;
  console.log(
    `Overload (${overloadConnections} connections, ${overloadSeconds} s): ${overload.requests.average.toFixed(0)} answers/s, ${served} served, ${shed} refused (${JSON.stringify(overload.statusCodeStats)}), latency of all answers p50 ${overload.latency.p50} ms p99 ${overload.latency.p99} ms, errors ${overload.errors}`,
  );
  console.log(
    `Second client GET /v1/spaces/:id: ${reads.served.length} served p50 ${ms(percentile(reads.served, 50))} p99 ${ms(percentile(reads.served, 99))}; ${reads.refused.length} refused (503) p99 ${ms(percentile(reads.refused, 99))}; ${reads.failed} failed`,
  );
  console.log(
    `Second client /livez: ${livez.served.length} answers p50 ${ms(percentile(livez.served, 50))} p99 ${ms(percentile(livez.served, 99))} max ${ms(Math.max(...livez.served))}; ${livez.refused.length + livez.failed} not 200`,
  );
}

async function main() {
  execFileSync(process.execPath, ["scripts/build.mjs", "--if-stale"], { stdio: "inherit" });
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  console.log(`Machine: ${await machine(admin)}`);
  const bench = await createBenchDatabase(admin, serverUrl);
  try {
    await tokenMintingProbe(bench.url);
    const off = { SHED_MAX_IN_FLIGHT: "0", SHED_MAX_IN_FLIGHT_PER_CALLER: "0", SHED_EVENT_LOOP_DELAY_MS: "0" };
    const secondToken = await secondPerson(bench.url, bench.data.organizationId);
    await overloadProbe("load shedding off", off, bench.url, bench.data, secondToken);
    const configured = configuredLimits();
    await overloadProbe(
      `load shedding on (${JSON.stringify(configured)})`,
      configured,
      bench.url,
      bench.data,
      secondToken,
    );
  } finally {
    await bench.drop();
    await admin.end();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
