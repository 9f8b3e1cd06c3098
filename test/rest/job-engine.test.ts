import { beforeAll, describe, expect, it } from "vitest";
import { enqueueJob, maxAttempts } from "../../src/jobs/queue.ts";
import { defineJob } from "../../src/jobs/registry.ts";
import { newId } from "../../src/platform/ids.ts";
import { seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";

let t: TestApp;

beforeAll(async () => {
  // Retries without delay: a job's attempts all run within one `runJobs`.
  t = await startTestApp({ env: { JOB_RETRY_DELAY_SECONDS: "0" } });
});

const seen: string[] = [];
let flakyFailuresLeft = 2;
defineJob("note", { run: async (_prisma, job) => void seen.push(String((job.payload as { text: string }).text)) });
defineJob("flaky", {
  run: async () => {
    if (flakyFailuresLeft-- > 0) throw new Error("not yet");
    seen.push("flaky done");
  },
});
defineJob("broken", {
  run: async () => {
    throw new Error("always");
  },
});

/** A row as the polling runner of the previous release left it: in "Job" only, the engine knows nothing of it. */
async function oldRow(type: string, payload: object, status: "pending" | "running") {
  const at = t.clock.now();
  return t.db.prisma.job.create({
    data: {
      id: newId("Job"),
      type,
      payload,
      status,
      attempts: status === "running" ? 1 : 0,
      lockedUntil: status === "running" ? at : null,
      runAt: at,
      createdAt: at,
      updatedAt: at,
    },
  });
}

describe("job engine", () => {
  // First in this file: the engine hands rows over when it starts, which `runJobs` does on its first call.
  it("runs the rows the previous release left waiting or running, once, after the upgrade", async () => {
    const waiting = await oldRow("note", { text: "left pending" }, "pending");
    const claimed = await oldRow("note", { text: "left running" }, "running");
    const finished = await oldRow("note", { text: "already done" }, "pending");
    await t.db.prisma.job.update({ where: { id: finished.id }, data: { status: "done" } });

    expect(await t.runJobs()).toBe(2);
    expect(seen.sort()).toEqual(["left pending", "left running"]);
    expect(await t.db.prisma.job.findUniqueOrThrow({ where: { id: waiting.id } })).toMatchObject({
      status: "done",
      attempts: 1,
    });
    expect(await t.db.prisma.job.findUniqueOrThrow({ where: { id: claimed.id } })).toMatchObject({
      status: "done",
      attempts: 2,
    });
    expect(await t.runJobs()).toBe(0);
    seen.length = 0;
  });

  it("runs each job once, retries failures, and fails for good a job out of attempts", async () => {
    const org = await seedOrganization(t.db, "Jobs");
    const note = await enqueueJob(t.db.prisma, "note", { text: "due" }, t.clock.now(), org.organizationId);
    const flaky = await enqueueJob(t.db.prisma, "flaky", {}, t.clock.now(), org.organizationId);
    const broken = await enqueueJob(t.db.prisma, "broken", {}, t.clock.now(), org.organizationId);

    // One run of `note`, three of `flaky` (two failures), every attempt of `broken`.
    expect(await t.runJobs()).toBe(1 + 3 + maxAttempts);
    expect(seen).toEqual(["due", "flaky done"]);
    expect(await t.db.prisma.job.findUniqueOrThrow({ where: { id: note.id } })).toMatchObject({ status: "done" });
    expect(await t.db.prisma.job.findUniqueOrThrow({ where: { id: flaky.id } })).toMatchObject({
      status: "done",
      attempts: 3,
      lastError: "not yet",
    });
    expect(await t.db.prisma.job.findUniqueOrThrow({ where: { id: broken.id } })).toMatchObject({
      status: "failed",
      attempts: maxAttempts,
      lastError: "always",
    });
    // Three jobs of one organization, two at a time: a job that waited its turn also left a completed engine job.
    const { rows } = await t.db.engineSql(
      `SELECT state FROM pgboss.job WHERE data->>'jobId' = $1 AND state <> 'completed'`,
      [broken.id],
    );
    expect(rows).toEqual([{ state: "failed" }]);
    expect(await t.runJobs()).toBe(0);

    const metrics = await (await t.app.fetch(new Request("http://gateway.test/metrics"))).text();
    expect(metrics).toContain('jobs_failures_total{type="broken",final="true"} 1');
    expect(metrics).toContain(`jobs_failures_total{type="broken",final="false"} ${maxAttempts - 1}`);
    expect(metrics).toContain('jobs_failures_total{type="flaky",final="false"} 2');
    expect(metrics).toMatch(/jobs_duration_seconds_count\{type="note",outcome="done"\} [1-9]/);
    expect(metrics).toMatch(/jobs_queue_depth\{status="failed"\} 1\n/);
  });

  it("reports an unknown job type as the job's error and fails it after its attempts", async () => {
    const orphan = await enqueueJob(t.db.prisma, "no-such-type", {}, t.clock.now());
    expect(await t.runJobs()).toBe(maxAttempts);
    expect(await t.db.prisma.job.findUniqueOrThrow({ where: { id: orphan.id } })).toMatchObject({
      status: "failed",
      lastError: "No handler for job type no-such-type",
    });
  });
});
