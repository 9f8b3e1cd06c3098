import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/database.ts";
import { analyzeTablesLackingStatistics } from "../../src/db/statistics.ts";
import { newId } from "../../src/platform/ids.ts";
import { seedBenchData } from "../bench/seed.ts";
import { openTestDatabase } from "../helpers/database.ts";

// A bulk load leaves tables without statistics (as a restore or an import does); the planner then guesses, and a
// generic plan keeps the guess. The server gathers them at start and when it finds tables lacking them.

let db: Database;

const shape = { sites: 4, sectionsPerSite: 3, siteSpacesPerSection: 5, spaces: 60, changeRequests: 20 };

/** The planner's estimate of live spaces: the selectivity the site-space reads' liveness check is planned with. */
async function estimatedLiveSpaces(): Promise<number> {
  const [plan] = await db.withRawConnection((connection) =>
    connection.query<{ "QUERY PLAN": [{ Plan: { "Plan Rows": number } }] }>(
      `EXPLAIN (FORMAT JSON) SELECT 1 FROM "Space" WHERE "deletedAt" IS NULL`,
    ),
  );
  return plan?.["QUERY PLAN"][0].Plan["Plan Rows"] ?? 0;
}

async function liveSpaces(): Promise<number> {
  const [row] = await db.withRawConnection((connection) =>
    connection.query<{ count: number }>(`SELECT count(*)::int AS count FROM "Space" WHERE "deletedAt" IS NULL`),
  );
  return row?.count ?? 0;
}

beforeAll(async () => {
  db = await openTestDatabase();
  if (db.kind === "postgres") {
    // Autovacuum must not analyze behind the test's back (PGlite has none).
    await db.withRawConnection(async (connection) => {
      const tables = await connection.query<{ name: string }>(
        `SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema()`,
      );
      for (const { name } of tables) await connection.exec(`ALTER TABLE "${name}" SET (autovacuum_enabled = false)`);
    });
  }
  await seedBenchData(db, { ...shape, otherOrganizations: 1 });
});

afterAll(async () => {
  await db?.close();
});

describe("tables lacking planner statistics", () => {
  it("are analyzed once, after which the planner sees the real share of live spaces", async () => {
    const live = await liveSpaces();
    expect(live).toBe(shape.spaces * 2);
    // Unanalyzed, `IS NULL` is guessed at 0.5% of the rows: a handful, which made the site-space reads start from
    // every live space.
    expect(await estimatedLiveSpaces()).toBeLessThan(live / 10);

    const analyzed = await analyzeTablesLackingStatistics(db);
    expect(analyzed).toEqual(expect.arrayContaining(["Space", "SiteSpace", "Site", "ChangeRequest"]));
    expect(analyzed).not.toContain("_prisma_migrations");
    expect(await estimatedLiveSpaces()).toBeGreaterThan(live / 2);

    expect(await analyzeTablesLackingStatistics(db)).toEqual([]);
  });

  it("are analyzed again when a table has outgrown its statistics", async () => {
    await analyzeTablesLackingStatistics(db);
    const organizationId = newId("Organization");
    await db.prisma.organization.create({ data: { id: organizationId, title: "Grown", createdAt: new Date() } });
    await db.prisma.space.createMany({
      data: Array.from({ length: 3000 }, (_, index) => ({
        id: newId("Space"),
        organizationId,
        title: `Grown ${index}`,
        revisionId: newId("Revision"),
        createdAt: new Date(),
        updatedAt: new Date(),
      })),
    });
    expect(await analyzeTablesLackingStatistics(db)).toContain("Space");
    expect(await analyzeTablesLackingStatistics(db)).toEqual([]);
  });
});
