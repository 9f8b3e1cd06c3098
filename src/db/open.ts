import type { Config } from "../platform/config.ts";
import type { DataDirLock } from "./data-dir-lock.ts";
import { type Database, openDatabase, type ReplicaSettings } from "./database.ts";
import { applyMigrations } from "./migrate.ts";
import { analyzeTablesLackingStatistics } from "./statistics.ts";

/**
 * How long a start waits for PostgreSQL to accept a connection. A host that drops packets (a firewall) would
 * otherwise hold the first connection for the system's TCP time-out, minutes. The pools have a wait limit of their
 * own (database.ts).
 */
const firstConnectionTimeoutMs = 10_000;

async function reachPostgres(url: string): Promise<void> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: firstConnectionTimeoutMs });
  try {
    await client.connect();
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Opens the configured database (PostgreSQL when DATABASE_URL is set, else PGlite in DATA_DIR, under `lock` when the
 * caller already took it), migrates it and gathers the statistics a restored or freshly loaded database lacks, before
 * the first request is planned. The server passes `onReplicaStateChange` to read from DATABASE_REPLICA_URL's
 * replicas; the CLI and migrations use the primary alone.
 */
export async function openConfiguredDatabase(
  config: Config,
  lock?: DataDirLock,
  onReplicaStateChange?: ReplicaSettings["onStateChange"],
): Promise<Database> {
  if (config.databaseUrl) await reachPostgres(config.databaseUrl);
  const replicas = onReplicaStateChange && {
    urls: config.databaseReplicaUrls,
    maxLagMs: config.databaseReplicaMaxLagSeconds * 1000,
    onStateChange: onReplicaStateChange,
  };
  const db = await openDatabase(
    config.databaseUrl
      ? { kind: "postgres", url: config.databaseUrl, replicas }
      : { kind: "pglite", dataDir: config.dataDir, lock },
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
