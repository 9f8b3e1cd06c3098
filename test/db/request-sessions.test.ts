import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/database.ts";
import { openTestDatabase } from "../helpers/database.ts";

// The settings every request's PostgreSQL session runs with, through both of its pools (Prisma's and the
// hand-written reads'). PostgreSQL's sessions only: PGlite has no pools and no JIT.
const serverUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!serverUrl)("request sessions (skipped without TEST_DATABASE_URL)", () => {
  let db: Database;

  beforeAll(async () => {
    db = await openTestDatabase();
  });

  afterAll(async () => {
    await db.close();
  });

  const settingsSql = `SELECT current_setting('jit') AS jit, current_setting('statement_timeout') AS "statementTimeout",
    current_setting('lock_timeout') AS "lockTimeout"`;
  const expected = { jit: "off", statementTimeout: "30s", lockTimeout: "10s" };

  it("compile no statement to machine code and bound every wait, in Prisma's pool", async () => {
    expect(await db.prisma.$queryRawUnsafe(settingsSql)).toEqual([expected]);
  });

  it("and in the hand-written reads' pool", async () => {
    expect(await db.sql.rows(settingsSql, [])).toEqual([expected]);
  });
});
