import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/database.ts";
import { openConfiguredDatabase } from "../../src/db/open.ts";
import type { ReplicaStatus } from "../../src/db/read-replicas.ts";
import { loadConfig } from "../../src/platform/config.ts";
import { type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { eventually } from "../helpers/eventually.ts";

/*
 * Reads on a real streaming replica. The PostgreSQL of TEST_DATABASE_URL allows no replication connection (its
 * pg_hba.conf has no `replication` line, and system files stay as they are), so this file starts a primary of its own
 * (initdb) and a replica of it (pg_basebackup -R), as the `postgres` OS user, on free ports under a temporary
 * directory that it removes afterwards, failed or not. It runs with TEST_DATABASE_URL (CI's PostgreSQL run), whose
 * machine has the server's binaries.
 */

const run = promisify(execFile);
const asPostgres = (command: string, args: string[]) => run("runuser", ["-u", "postgres", "--", command, ...args]);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (typeof address !== "object" || address === null) throw new Error("no port");
  return address.port;
}

describe.skipIf(!process.env.TEST_DATABASE_URL)("reads on a streaming replica", () => {
  let dir = "";
  let bin = "";
  const running: string[] = [];
  let db: Database | undefined;
  let otherDb: Database | undefined;
  let t: TestApp;
  /** Another instance on the same primary and replica. */
  let secondInstance: TestApp;
  let org: SeededOrganization;
  let primary: pg.Client;
  let replica: pg.Client;
  const states: ReplicaStatus[] = [];

  const pgCtl = (dataDir: string, args: string[]) => asPostgres(join(bin, "pg_ctl"), ["-D", dataDir, ...args]);
  const start = async (dataDir: string, port: number) => {
    await pgCtl(dataDir, ["-o", `-p ${port} -k ${dir}`, "-l", `${dataDir}.log`, "-w", "start"]);
    running.push(dataDir);
  };

  beforeAll(async () => {
    bin = (await run("pg_config", ["--bindir"])).stdout.trim();
    dir = mkdtempSync(join(tmpdir(), "gateway-replica-"));
    await run("chown", ["postgres", dir]);
    const [primaryPort, replicaPort] = [await freePort(), await freePort()];
    const primaryDir = join(dir, "primary");
    const replicaDir = join(dir, "replica");
    await asPostgres(join(bin, "initdb"), ["-D", primaryDir, "-U", "postgres", "--auth=trust", "--no-sync"]);
    await start(primaryDir, primaryPort);
    await asPostgres(join(bin, "pg_basebackup"), [
      ...["-h", "127.0.0.1", "-p", String(primaryPort), "-U", "postgres"],
      ...["-D", replicaDir, "-R", "-X", "stream"],
    ]);
    await start(replicaDir, replicaPort);

    const primaryUrl = `postgresql://postgres@127.0.0.1:${primaryPort}/postgres`;
    const replicaUrl = `postgresql://postgres@127.0.0.1:${replicaPort}/postgres`;
    primary = new pg.Client(primaryUrl);
    replica = new pg.Client(replicaUrl);
    await Promise.all([primary.connect(), replica.connect()]);
    const config = loadConfig({
      DATABASE_URL: primaryUrl,
      DATABASE_REPLICA_URL: replicaUrl,
      SECRETS_KEY: "5ec2e75".padEnd(64, "0"),
    });
    db = await openConfiguredDatabase(config, undefined, (status) => states.push(status));
    t = await startTestApp({ db });
    otherDb = await openConfiguredDatabase(config, undefined, () => {});
    secondInstance = await startTestApp({ db: otherDb });
    org = await seedOrganization(db);
  });

  afterAll(async () => {
    await Promise.allSettled([db?.close(), otherDb?.close(), primary?.end(), replica?.end()]);
    for (const dataDir of running.reverse()) await pgCtl(dataDir, ["-m", "immediate", "stop"]).catch(() => {});
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Waits until the replica has replayed everything the primary has written so far. */
  async function replicaCaughtUp(): Promise<void> {
    const { rows } = await primary.query<{ position: string }>("SELECT pg_current_wal_lsn()::text AS position");
    const replayed = async () =>
      (
        await replica.query<{ done: boolean }>("SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS done", [
          rows[0]?.position,
        ])
      ).rows[0]?.done;
    expect((await eventually(replayed, true, 400)).at(-1)).toBe(true);
  }

  /** A counter of /metrics (0 when absent). */
  async function metric(line: string): Promise<number> {
    const text = await (await t.app.fetch(new Request("http://gateway.test/metrics"))).text();
    const escaped = line.replace(/[{}]/g, "\\$&");
    return Number(new RegExp(`^${escaped} (\\d+)$`, "m").exec(text)?.[1] ?? 0);
  }

  /** The `db_reads_total` counts of /metrics, by server. */
  async function routedReads(): Promise<{ primary: number; replica: number }> {
    return {
      primary: await metric('db_reads_total{server="primary"}'),
      replica: await metric('db_reads_total{server="replica"}'),
    };
  }

  const createSpace = async (title: string) => {
    const created = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/spaces`, {
      token: org.members.admin.token,
      body: { title },
    });
    expect(created.status).toBe(201);
    return created.body.id;
  };
  /** The titles of the organization's spaces as `token`'s user lists them (a read through Prisma). */
  const spaceTitles = async (token: string) => {
    const list = await t.rest<{ items: { title: string }[] }>("GET", `/orgs/${org.organizationId}/spaces`, { token });
    expect(list.status).toBe(200);
    return list.body.items.map((space) => space.title).sort();
  };
  const readSpace = (spaceId: string, token: string, instance = t) =>
    instance.rest<{ title?: string }>("GET", `/spaces/${spaceId}`, { token });

  it("serves reads from the replica, a writer's own reads from the primary until replayed, and falls back", async () => {
    expect(states.at(-1)?.state).toBe("up");

    // A read of someone without a recent write runs on the replica once it has the data.
    const before = await createSpace("Replicated");
    await replicaCaughtUp();
    const counts = await routedReads();
    const seen = await readSpace(before, org.members.create.token);
    expect(seen.status).toBe(200);
    expect(seen.body.title).toBe("Replicated");
    expect(await routedReads()).toEqual({ primary: counts.primary, replica: counts.replica + 1 });

    // Replay paused: the replica no longer moves.
    await replica.query("SELECT pg_wal_replay_pause()");
    const paused = async () =>
      (await replica.query<{ state: string }>("SELECT pg_get_wal_replay_pause_state() AS state")).rows[0]?.state;
    expect((await eventually(paused, "paused", 400)).at(-1)).toBe("paused");

    // The writer reads its own write at once, from the primary, over REST and GraphQL.
    const written = await createSpace("Written while paused");
    const afterWrite = await routedReads();
    const own = await readSpace(written, org.members.admin.token);
    expect(own.status).toBe(200);
    expect(own.body.title).toBe("Written while paused");
    const ownGraphQL = await t
      .graphql(org.members.admin.token)
      .request<{ space: { title: string } | null }>("query OwnWrite($id: ID!) { space(id: $id) { title } }", {
        id: written,
      });
    expect(ownGraphQL.space?.title).toBe("Written while paused");
    expect(await routedReads()).toEqual({ primary: afterWrite.primary + 2, replica: afterWrite.replica });

    // Someone else reads from the replica meanwhile: the space is not there yet (stale reads are allowed to others).
    const other = await readSpace(written, org.members.create.token);
    expect(other.status).toBe(404);
    expect(await spaceTitles(org.members.create.token)).toEqual(["Replicated"]);
    expect(await spaceTitles(org.members.admin.token)).toEqual(["Replicated", "Written while paused"]);
    expect(await routedReads()).toEqual({ primary: afterWrite.primary + 3, replica: afterWrite.replica + 2 });

    // Another instance heard of the write through the event bus (a NOTIFY): the writer's reads there go to the
    // primary too. Only the primary has the space while replay is paused.
    const onOther = async () => (await readSpace(written, org.members.admin.token, secondInstance)).status;
    expect((await eventually(onOther, 200)).at(-1)).toBe(200);

    // Replay resumed: the others see it from the replica.
    await replica.query("SELECT pg_wal_replay_resume()");
    await replicaCaughtUp();
    expect((await readSpace(written, org.members.create.token)).status).toBe(200);

    // The replica stopped: reads fall back to the primary (Prisma's, then the hand-written ones), and readiness reports
    // the replica without failing.
    await replica.end();
    const replicaDir = running.pop() as string;
    await pgCtl(replicaDir, ["-m", "fast", "-w", "stop"]);
    expect(await metric("db_replica_fallbacks_total")).toBe(0);
    expect(await spaceTitles(org.members.create.token)).toEqual(["Replicated", "Written while paused"]);
    expect(await metric("db_replica_fallbacks_total")).toBeGreaterThan(0);
    const fallback = await readSpace(written, org.members.create.token);
    expect(fallback.status).toBe(200);
    expect(fallback.body.title).toBe("Written while paused");
    const ready = await t.app.fetch(new Request("http://gateway.test/readyz"));
    expect(ready.status).toBe(200);
    const readiness = (await ready.json()) as { status: string; replicas: ReplicaStatus[] };
    expect(readiness.status).toBe("ready");
    expect(readiness.replicas.map((each) => each.state)).toEqual(["down"]);
    const downCounts = await routedReads();
    expect((await readSpace(written, org.members.create.token)).status).toBe(200);
    expect(await routedReads()).toEqual({ primary: downCounts.primary + 1, replica: downCounts.replica });
  });
});
