import { beforeAll, describe, expect, it } from "vitest";
import { backoffMs, enqueueJob, type JobHandlers, maxAttempts, runDueJobs } from "../../src/jobs/runner.ts";
import { startTestApp, type TestApp } from "../helpers/app.ts";

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});

describe("job runner", () => {
  it("runs due jobs once, retries failures with backoff, then gives up", async () => {
    const seen: string[] = [];
    let failuresLeft = 2;
    const handlers: JobHandlers = {
      note: { run: async (_prisma, job) => void seen.push(String((job.payload as { text: string }).text)) },
      flaky: {
        run: async () => {
          if (failuresLeft-- > 0) throw new Error("not yet");
          seen.push("flaky done");
        },
      },
      broken: {
        run: async () => {
          throw new Error("always");
        },
      },
    };
    const now = t.clock.now();
    await enqueueJob(t.db.prisma, "note", { text: "due" }, now);
    await enqueueJob(t.db.prisma, "note", { text: "later" }, new Date(now.getTime() + 60_000));
    const flaky = await enqueueJob(t.db.prisma, "flaky", {}, now);
    const broken = await enqueueJob(t.db.prisma, "broken", {}, now);

    expect(await runDueJobs(t.db, t.clock, t.config, handlers)).toBe(3);
    expect(seen).toEqual(["due"]);
    const retried = await t.db.prisma.job.findUniqueOrThrow({ where: { id: flaky.id } });
    expect(retried).toMatchObject({ status: "pending", attempts: 1, lastError: "not yet" });
    expect(retried.runAt.getTime()).toBe(now.getTime() + backoffMs(1));
    expect(await runDueJobs(t.db, t.clock, t.config, handlers)).toBe(0);

    for (let attempt = 1; attempt < maxAttempts; attempt++) {
      t.clock.advance(backoffMs(attempt));
      await runDueJobs(t.db, t.clock, t.config, handlers);
    }
    expect(seen).toEqual(["due", "later", "flaky done"]);
    expect(await t.db.prisma.job.findUniqueOrThrow({ where: { id: flaky.id } })).toMatchObject({ status: "done" });
    expect(await t.db.prisma.job.findUniqueOrThrow({ where: { id: broken.id } })).toMatchObject({
      status: "failed",
      attempts: maxAttempts,
      lastError: "always",
    });
  });

  it("claims again a job whose runner died (expired lock), and never one still locked", async () => {
    const now = t.clock.now();
    const job = await enqueueJob(t.db.prisma, "orphan", {}, now);
    await t.db.prisma.job.update({
      where: { id: job.id },
      data: { status: "running", attempts: 1, lockedUntil: new Date(now.getTime() + 60_000) },
    });
    const ran: string[] = [];
    const handlers: JobHandlers = { orphan: { run: async (_prisma, claimed) => void ran.push(claimed.id) } };
    expect(await runDueJobs(t.db, t.clock, t.config, handlers)).toBe(0);
    t.clock.advance(61_000);
    expect(await runDueJobs(t.db, t.clock, t.config, handlers)).toBe(1);
    expect(ran).toEqual([job.id]);
    expect(await t.db.prisma.job.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({
      status: "done",
      attempts: 2,
    });
  });
});
