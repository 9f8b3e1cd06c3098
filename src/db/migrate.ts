import { createHash, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Database, RawConnection } from "./database.ts";

/** The folder holding package.json, found upwards from this module: it runs from src/db/ and bundled in dist/. */
function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "package.json"))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error("package.json not found above the running module");
    dir = parent;
  }
  return dir;
}

const migrationsDir = join(packageRoot(), "prisma", "migrations");

// Prisma's own bookkeeping table, so `prisma migrate deploy` and this runner stay interchangeable.
const createMigrationsTable = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

// Any constant works; it only has to be the same for every instance of this service.
const migrationLockKey = 4_815_162_342;

/** A migration that failed, or that was changed after it was applied: the start stops with it. */
export class MigrationError extends Error {}

/**
 * The job engine's schema (pg-boss, src/jobs/engine.ts). It is the engine's own, versioned by the engine (whose start
 * migrates it to the release installed), and outside `prisma/migrations`: Prisma's schema stays `public`. It is
 * created here, with the database, because every instance adds jobs to it, also one that runs none (RUN_JOBS=false).
 */
export const jobEngineSchema = "pgboss";

export interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

function readMigrations(dir = migrationsDir): MigrationFile[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, "migration.sql")))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

/**
 * Applies pending migrations in name order, one transaction each, under an advisory lock so that several
 * instances starting together on one PostgreSQL apply each migration once. Returns the names applied.
 */
export async function applyMigrations(
  db: Pick<Database, "withRawConnection">,
  migrations = readMigrations(),
): Promise<string[]> {
  const migrate = async (connection: RawConnection): Promise<string[]> => {
    await connection.query("SELECT pg_advisory_lock($1)", [migrationLockKey]);
    try {
      // A catalog lookup, not the DDL each time: CREATE TABLE IF NOT EXISTS cost every embedded start much more.
      const [table] = await connection.query<{ found: boolean }>(
        `SELECT to_regclass('"_prisma_migrations"') IS NOT NULL AS found`,
      );
      if (!table?.found) await connection.exec(createMigrationsTable);
      const applied = new Map(
        (
          await connection.query<{ migration_name: string; checksum: string }>(
            `SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
          )
        ).map((row) => [row.migration_name, row.checksum]),
      );
      const done: string[] = [];
      for (const migration of migrations) {
        const recorded = applied.get(migration.name);
        if (recorded !== undefined) {
          if (recorded !== migration.checksum) {
            throw new MigrationError(
              `Migration ${migration.name} was changed after it was applied (checksum mismatch)`,
            );
          }
          continue;
        }
        await connection.exec("BEGIN");
        try {
          await connection.exec(migration.sql);
          await connection.query(
            `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, finished_at, applied_steps_count)
             VALUES ($1, $2, $3, now(), 1)`,
            [randomUUID(), migration.checksum, migration.name],
          );
          await connection.exec("COMMIT");
        } catch (error) {
          await connection.exec("ROLLBACK");
          throw new MigrationError(`Migration ${migration.name} failed: ${(error as Error).message}`);
        }
        done.push(migration.name);
      }
      const [engine] = await connection.query<{ found: boolean }>(
        `SELECT to_regclass('${jobEngineSchema}.version') IS NOT NULL AS found`,
      );
      if (!engine?.found) {
        // Loaded only when missing: pg-boss's module loads `pg`, which a PGlite process needs nowhere else.
        const { default: PgBoss } = await import("pg-boss");
        await connection.exec(PgBoss.getConstructionPlans(jobEngineSchema));
      }
      return done;
    } finally {
      await connection.query("SELECT pg_advisory_unlock($1)", [migrationLockKey]);
    }
  };
  // Waiting for another instance's migrations, and a migration itself, may outlast a request's limits.
  return db.withRawConnection(migrate, { unbounded: true });
}
