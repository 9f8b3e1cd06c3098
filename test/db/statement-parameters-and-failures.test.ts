import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/database.ts";
import { openTestDatabase } from "../helpers/database.ts";

// The hand-written reads' driver layer (src/db/sql.ts; on PostgreSQL src/db/pg-prepared-reads.ts, which prepares
// each text once per connection): parameters reach PostgreSQL as sent,
// a failing statement fails only its own read, and a text's first executions on many connections at once all get
// their own rows. Runs on PGlite, and on PostgreSQL with TEST_DATABASE_URL.

let db: Database;

beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(() => db.close());

describe("hand-written reads' statements", () => {
  it("send array, text, number, boolean, Date and null parameters as PostgreSQL reads them", async () => {
    const texts = ["plain", 'with "quotes"', "back\\slash", "comma, {braces}", "", "NULL", "émoji 📘", "tab\tline\n"];
    const [row] = await db.sql.rows<{ texts: string[]; withNull: (string | null)[]; none: string[] }>(
      `SELECT $1::text[] AS texts, $2::text[] AS "withNull", $3::text[] AS none`,
      [texts, ["a", null, "b"], []],
    );
    expect(row).toStrictEqual({ texts, withNull: ["a", null, "b"], none: [] });

    const at = new Date(Date.UTC(2026, 10, 26, 12, 34, 56, 789));
    const [scalars] = await db.sql.rows<Record<string, unknown>>(
      `SELECT $1::int AS number, $2::boolean AS yes, $3::boolean AS no, $4::timestamp(3) AS at, $5::text AS nothing,
              $6::text AS text, $7::int[] AS numbers`,
      [42, true, false, at, null, "x'y", [1, 2, 3]],
    );
    expect(scalars).toStrictEqual({
      number: 42,
      yes: true,
      no: false,
      at,
      nothing: null,
      text: "x'y",
      numbers: [1, 2, 3],
    });
  });

  it("fail a read whose statement fails, and leave the other reads of that text working", async () => {
    const text = `SELECT $1::int + 1 AS next`;
    await expect(db.sql.rows(text, ["not a number"])).rejects.toThrow(/invalid input syntax for type integer/);
    // More reads at once than the pool has connections: every connection runs the text, the failed one's too.
    const answers = await Promise.all(
      Array.from({ length: 25 }, (_, index) => db.sql.rows<{ next: number }>(text, [index])),
    );
    expect(answers.map((rows) => rows[0]?.next)).toStrictEqual(Array.from({ length: 25 }, (_, index) => index + 1));
    await expect(db.sql.rows(text, ["x"])).rejects.toThrow(/invalid input syntax/);
    expect(await db.sql.rows(text, [41])).toStrictEqual([{ next: 42 }]);
  });

  it("answer a text's first executions, run on many connections at once, each with its own rows", async () => {
    const text = `SELECT n, $1::text AS tag FROM generate_series(1, $2::int) AS n`;
    const answers = await Promise.all(
      Array.from({ length: 25 }, (_, index) => db.sql.rows<{ n: number; tag: string }>(text, [`t${index}`, index])),
    );
    answers.forEach((rows, index) => {
      expect(rows).toStrictEqual(Array.from({ length: index }, (_, n) => ({ n: n + 1, tag: `t${index}` })));
    });
  });

  it("read a table's new columns once another process has migrated it, each connection failing one read at most", async () => {
    await db.withRawConnection((connection) =>
      connection.exec(`CREATE TABLE "MigratedUnderUs" (id int PRIMARY KEY); INSERT INTO "MigratedUnderUs" VALUES (1)`),
    );
    const text = `SELECT * FROM "MigratedUnderUs"`;
    // Prepared and described on every pooled connection.
    await Promise.all(Array.from({ length: 25 }, () => db.sql.rows(text)));
    await db.withRawConnection((connection) =>
      connection.exec(`ALTER TABLE "MigratedUnderUs" ADD COLUMN note text NOT NULL DEFAULT 'added'`),
    );
    // Each connection that prepared or described the old columns fails one read, then reads the new ones.
    const retried = async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await db.sql.rows(text);
        } catch (error) {
          if (attempt > 10) throw error;
        }
      }
    };
    const first = await Promise.all(Array.from({ length: 25 }, retried));
    expect(first).toStrictEqual(Array.from({ length: 25 }, () => [{ id: 1, note: "added" }]));
    const again = await Promise.all(Array.from({ length: 25 }, () => db.sql.rows(text)));
    expect(again).toStrictEqual(Array.from({ length: 25 }, () => [{ id: 1, note: "added" }]));
  });
});
