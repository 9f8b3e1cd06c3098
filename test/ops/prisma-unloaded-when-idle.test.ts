import { beforeAll, describe, expect, it, vi } from "vitest";
import { bootstrapDemoData } from "../../src/bootstrap.ts";
import { type Database, openDatabase } from "../../src/db/database.ts";
import { applyMigrations } from "../../src/db/migrate.ts";
import { runJobs } from "../../src/jobs/recurring.ts";
import { encryptStoredVisitorAuthKeys } from "../../src/modules/site-structure/site.service.ts";
import { seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";

// Prisma's query engine (WebAssembly) is compiled on its first statement, ~30 MB resident, and its client parses a
// ~13 MB parameterization graph when constructed: a start on an existing database and a job runner with nothing due
// check through the hand-written reads only (src/main.ts), and the client is constructed on first use.

/** How many Prisma clients were constructed: the real class, counted. */
const constructions = vi.hoisted(() => ({ count: 0 }));
vi.mock("../../src/db/generated/client.ts", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/db/generated/client.ts")>();
  class CountedPrismaClient extends real.PrismaClient {
    constructor(...args: ConstructorParameters<typeof real.PrismaClient>) {
      super(...args);
      constructions.count += 1;
    }
  }
  return { ...real, PrismaClient: CountedPrismaClient };
});

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

describe("Prisma's client is constructed on first use", () => {
  it("opening, migrating and reading construct none; the first Prisma call constructs one, used from then on", async () => {
    const before = constructions.count;
    const db = await openDatabase({ kind: "pglite", dataDir: "memory://" });
    try {
      await applyMigrations(db);
      expect(await db.sql.rows('SELECT count(*)::int AS users FROM "User"')).toStrictEqual([{ users: 0 }]);
      expect(constructions.count).toBe(before);

      expect(await db.prisma.user.count()).toBe(0);
      expect(await db.prisma.$transaction(async (tx) => tx.organization.count())).toBe(0);
      expect(constructions.count).toBe(before + 1);
    } finally {
      await db.close();
    }
  });
});
