import type { Logger } from "../platform/logger.ts";
import type { Database } from "./database.ts";

/**
 * Planner statistics for tables that have none, or have outgrown theirs.
 *
 * Without statistics PostgreSQL guesses selectivities (`"deletedAt" IS NULL`: 0.5% of rows), and the hand-written
 * reads run on generic plans (database.ts) that keep such a guess for the connection's life: after a restore, an import
 * or a bulk load, until autovacuum's next round, the nested read drove its site-space read from every live space and
 * ran ~10x slower. On PGlite nothing ever gathers statistics (single-user PostgreSQL has no autovacuum). ANALYZE
 * invalidates the cached plans that depend on the table, so the next execution plans with real figures.
 *
 * The test reads the catalog only (`pg_class`), not the statistics counters: PGlite reports those late or not at all.
 * A table needs ANALYZE when it holds pages and was never analyzed (`reltuples < 0`), or when it has grown to more
 * than twice the pages it had at its last ANALYZE (`relpages`); the margin keeps small tables from being analyzed
 * on every check.
 */
const tablesNeedingStatistics = `
  SELECT c.relname AS name
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE n.nspname = current_schema() AND c.relkind = 'r' AND c.relname <> '_prisma_migrations'
    AND pg_relation_size(c.oid) > 0
    AND (c.reltuples < 0 OR pg_relation_size(c.oid) / current_setting('block_size')::int > 2 * c.relpages + 16)
  ORDER BY c.relname`;

/** Analyzes the tables whose statistics are missing or outgrown; returns their names. */
export async function analyzeTablesLackingStatistics(db: Pick<Database, "withRawConnection">): Promise<string[]> {
  return db.withRawConnection(async (connection) => {
    const tables = (await connection.query<{ name: string }>(tablesNeedingStatistics)).map((row) => row.name);
    if (tables.length > 0) {
      await connection.exec(`ANALYZE ${tables.map((name) => `"${name.replaceAll('"', '""')}"`).join(", ")}`);
    }
    return tables;
  });
}

/**
 * Checks every `intervalMs` for tables lacking statistics (a catalog read; ANALYZE only when one does): loads made
 * while the server runs (a seed, an import, a restore into a running server) get statistics within one interval on
 * PGlite, where nothing else would gather them, and on PostgreSQL before autovacuum's thresholds and round get to them.
 */
export function keepTableStatistics(db: Pick<Database, "withRawConnection">, logger: Logger, intervalMs = 60_000) {
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = analyzeTablesLackingStatistics(db)
      .then((tables) => {
        if (tables.length > 0) logger.info("analyzed tables lacking statistics", { tables });
      })
      .catch((error: unknown) => logger.warn("could not check table statistics", { error: String(error) }));
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
