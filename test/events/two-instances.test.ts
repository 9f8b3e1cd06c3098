import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/db/database.ts";
import { applyMigrations } from "../../src/db/migrate.ts";
import { enqueueJob } from "../../src/jobs/queue.ts";
import { seedOrganization } from "../helpers/app.ts";
import { subscribe } from "../helpers/sse.ts";

const serverUrl = process.env.TEST_DATABASE_URL;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const started: ChildProcess[] = [];

/** What `npm start` runs (dist/main.js) in its own process; resolves with its URL once it prints that it listens. */
async function startServer(databaseUrl: string, env: Record<string, string>): Promise<string> {
  const port = await freePort();
  const child = spawn(process.execPath, ["dist/main.js"], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      SECRETS_KEY: "2".repeat(64),
      PORT: String(port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  started.push(child);
  let output = "";
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("listening on")) resolve();
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on("exit", (code) => reject(new Error(`Server exited with ${code}: ${output}`)));
  });
  return `http://127.0.0.1:${port}`;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.on("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

describe.skipIf(!serverUrl)("two server processes on one PostgreSQL (skipped without TEST_DATABASE_URL)", () => {
  const name = `test_${randomBytes(6).toString("hex")}`;
  const databaseUrl = (() => {
    const url = new URL(serverUrl ?? "postgresql://unused");
    url.pathname = `/${name}`;
    return url.toString();
  })();

  afterAll(async () => {
    await Promise.all(started.map(stop));
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });

  it("a subscriber on one instance sees the progress of a job another instance runs", async () => {
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const db = await openDatabase({ kind: "postgres", url: databaseUrl });
    await applyMigrations(db);
    const org = await seedOrganization(db, "Two Instances");
    const job = await enqueueJob(
      db.prisma,
      "seed-demo-content",
      { userId: org.members.admin.id, size: "small" },
      new Date(),
      org.organizationId,
    );

    // Instance B serves the subscription and runs no jobs, so the work can only happen on instance A.
    const b = await startServer(databaseUrl, { RUN_JOBS: "false" });
    const stream = await subscribe(
      fetch,
      `${b}/graphql`,
      org.members.read.token,
      `subscription($jobId: ID!) { jobProgress(jobId: $jobId) { status progressDone progressTotal } }`,
      { jobId: job.id },
    );
    expect((await stream.next())?.data?.jobProgress).toMatchObject({ status: "PENDING" });

    await startServer(databaseUrl, { RUN_JOBS: "true" });
    const updates: { status: string; progressDone: number; progressTotal: number }[] = [];
    for (let event = await stream.next(); event; event = await stream.next()) {
      updates.push(event.data?.jobProgress as (typeof updates)[number]);
    }
    const last = updates.at(-1);
    expect(last?.status).toBe("DONE");
    expect(last?.progressDone).toBe(last?.progressTotal);
    expect(updates.filter((update) => update.status === "RUNNING" && update.progressDone > 0).length).toBe(
      last?.progressTotal,
    );
    expect(await db.prisma.site.count({ where: { organizationId: org.organizationId } })).toBe(1);
    await db.close();
  }, 120_000);
});
