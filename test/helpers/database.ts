import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";
import { type Database, openDatabase } from "../../src/db/database.ts";
import { applyMigrations } from "../../src/db/migrate.ts";

export interface ScratchPostgresDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * A new database on the PostgreSQL server of `serverUrl`, for tests and scripts that start servers on it: empty, or a
 * copy of `template`.
 */
export async function createScratchDatabase(serverUrl: string, template?: string): Promise<ScratchPostgresDatabase> {
  const name = `test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ""}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, or a new database on the
 * PostgreSQL server of TEST_DATABASE_URL (dropped again by `close`). Each starts from the run's migrated template
 * (test/global-setup.ts); applying the migrations then finds nothing to do, unless the file added one.
 */
export async function openTestDatabase(): Promise<Database> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const db = await openDatabase({ kind: "pglite", dataDir: "memory://", template: inject("pgliteTemplate") });
    await applyMigrations(db);
    return db;
  }
  const scratch = await createScratchDatabase(serverUrl, inject("postgresTemplate"));
  const db = await openDatabase({ kind: "postgres", url: scratch.url });
  await applyMigrations(db);
  return {
    ...db,
    async close() {
      await db.close();
      await scratch.drop();
    },
  };
}
