import type { Config } from "../config.ts";
import type { DataDirLock } from "./data-dir-lock.ts";
import { type Database, openDatabase } from "./database.ts";
import { applyMigrations } from "./migrate.ts";

/**
 * Opens the configured database (PostgreSQL when DATABASE_URL is set, else PGlite in DATA_DIR, under `lock` when the
 * caller already took it) and migrates it.
 */
export async function openConfiguredDatabase(config: Config, lock?: DataDirLock): Promise<Database> {
  const db = await openDatabase(
    config.databaseUrl
      ? { kind: "postgres", url: config.databaseUrl }
      : { kind: "pglite", dataDir: config.dataDir, lock },
  );
  try {
    await applyMigrations(db);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}
