import type { Config } from "../config.ts";
import { type Database, openDatabase } from "./database.ts";
import { applyMigrations } from "./migrate.ts";
import { analyzeTablesLackingStatistics } from "./statistics.ts";

/**
 * Opens the configured database (PostgreSQL when DATABASE_URL is set, else PGlite in DATA_DIR), migrates it and
 * gathers the statistics a restored or freshly loaded database lacks, before the first request is planned.
 */
export async function openConfiguredDatabase(config: Config): Promise<Database> {
  const db = await openDatabase(
    config.databaseUrl ? { kind: "postgres", url: config.databaseUrl } : { kind: "pglite", dataDir: config.dataDir },
  );
  try {
    await applyMigrations(db);
    await analyzeTablesLackingStatistics(db);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}
