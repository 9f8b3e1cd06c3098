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

/** An in-memory PGlite database a file has closed, kept for the worker's next file (see `openTestDatabase`). */
interface IdleDatabase {
  db: Database;
  /** Whom its statements are reported to: the listeners of the file holding it now. */
  listeners: Parameters<Database["onStatement"]>[0][];
}

/**
 * The worker's closed in-memory databases. The files of the `api` project share their worker's modules (vitest's
 * `isolate: false`), so a file's closed database serves the next one, emptied: opening one cost ~1 s of CPU
 * (PGlite's file system, unpacking the template), emptying it a few milliseconds. Other files load this module anew
 * and find none.
 */
const idleDatabases: IdleDatabase[] = [];

/** The tables a file may have written: every one but the migrations' record and the job engine's own settings. */
const writtenTablesQuery = `SELECT string_agg(format('%I.%I', schemaname, tablename), ', ') AS tables FROM pg_tables
  WHERE (schemaname = 'public' AND tablename <> '_prisma_migrations')
     OR (schemaname = 'pgboss' AND tablename NOT IN ('version', 'queue', 'schedule'))`;

/** The database as the file that takes it sees it: its own statement listeners, and `close` handing it on. */
function lease(idle: IdleDatabase): Database {
  idle.listeners = [];
  return {
    ...idle.db,
    onStatement: (listener) => idle.listeners.push(listener),
    async close() {
      idle.listeners = [];
      idleDatabases.push(idle);
    },
  };
}

/** A new in-memory PGlite database from the run's template, or the worker's idle one emptied. */
async function pgliteTestDatabase(): Promise<Database> {
  // Elsewhere, a file may close its database under its service on purpose (test/db/database-outage.test.ts).
  const reuse = inject("reuseDatabases") === true;
  const reused = reuse ? idleDatabases.pop() : undefined;
  if (reused) {
    await reused.db.withRawConnection(async (connection) => {
      const [written] = await connection.query<{ tables: string }>(writtenTablesQuery);
      await connection.exec(`TRUNCATE ${written?.tables} RESTART IDENTITY CASCADE`);
    });
    return lease(reused);
  }
  const db = await openDatabase({ kind: "pglite", dataDir: "memory://", template: inject("pgliteTemplate") });
  await applyMigrations(db);
  if (!reuse) return db;
  const idle: IdleDatabase = { db, listeners: [] };
  db.onStatement((text, params) => {
    for (const listener of idle.listeners) listener(text, params);
  });
  return lease(idle);
}

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, or a new database on the
 * PostgreSQL server of TEST_DATABASE_URL (dropped again by `close`). Each starts from the run's migrated template
 * (test/global-setup.ts); applying the migrations then finds nothing to do, unless the file added one.
 */
export async function openTestDatabase(): Promise<Database> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) return pgliteTestDatabase();
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
