import { beforeAll, describe, expect, it } from "vitest";
import { bootstrapDemoData } from "../../src/bootstrap.ts";
import type { Database } from "../../src/db/database.ts";
import { runJobs } from "../../src/jobs/recurring.ts";
import { encryptStoredVisitorAuthKeys } from "../../src/modules/site-structure/site.service.ts";
import { seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";

// Prisma's query engine (WebAssembly) is compiled on its first statement, ~30 MB resident: a start on an existing
// database and a job runner with nothing due check through the hand-written reads only (src/main.ts).

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
  await seedOrganization(t.db);
});

/** The database with a Prisma client that fails the test on any use. */
function withoutPrisma(db: Database): Pick<Database, "prisma" | "sql"> {
  const prisma = new Proxy({} as Database["prisma"], {
    get(_target, property) {
      throw new Error(`Prisma used: prisma.${String(property)}`);
    },
  });
  return { prisma, sql: db.sql };
}

describe("a start and an idle job runner leave Prisma unloaded", () => {
  it("checks the demo data and the stored visitor-auth keys without Prisma when there is nothing to do", async () => {
    expect(await bootstrapDemoData(withoutPrisma(t.db), t.clock)).toBeNull();
    expect(await encryptStoredVisitorAuthKeys(withoutPrisma(t.db), t.config.secretsKey)).toBe(0);
  });

  it("schedules and runs recurring jobs through Prisma, then finds nothing due without it", async () => {
    await expect(runJobs(withoutPrisma(t.db), t.clock, t.config)).rejects.toThrow("Prisma used: prisma.job");
    expect(await runJobs(t.db, t.clock, t.config)).toBeGreaterThan(0);
    const scheduled = await t.db.prisma.job.findMany({ where: { id: { startsWith: "job_recurring_" } } });
    expect(scheduled.length).toBeGreaterThan(0);
    expect(scheduled.every((job) => job.status === "pending" && job.runAt > t.clock.now())).toBe(true);

    expect(await runJobs(withoutPrisma(t.db), t.clock, t.config)).toBe(0);
    // Once one is due again, the runner claims it (through Prisma).
    const nextRun = Math.min(...scheduled.map((job) => job.runAt.getTime()));
    t.clock.advance(nextRun - t.clock.now().getTime());
    await expect(runJobs(withoutPrisma(t.db), t.clock, t.config)).rejects.toThrow("Prisma used");
    expect(await runJobs(t.db, t.clock, t.config)).toBeGreaterThan(0);
  });
});
