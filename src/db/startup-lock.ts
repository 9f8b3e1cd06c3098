import type { Database } from "./database.ts";

// Any constant works, as long as every instance uses the same one and it differs from the migrations' (migrate.ts).
const startupLockKey = 4_815_162_343;

/**
 * Runs start-up work that must happen once per database (the bootstrap admin and demo data, the job engine's queues
 * and schedules) under a PostgreSQL advisory lock held by a dedicated connection: instances started together run it
 * one after another, and each finds what the first did (the work checks before it writes). PGlite has a single
 * process (data-dir-lock.ts), so it needs none. The lock goes with its connection should the process die.
 */
export function underStartupLock<T>(db: Pick<Database, "kind" | "withRawConnection">, work: () => Promise<T>) {
  if (db.kind !== "postgres") return work();
  // Waiting for another instance's start-up may outlast a request's statement limits.
  return db.withRawConnection(
    async (connection) => {
      await connection.query("SELECT pg_advisory_lock($1)", [startupLockKey]);
      try {
        return await work();
      } finally {
        await connection.query("SELECT pg_advisory_unlock($1)", [startupLockKey]);
      }
    },
    { unbounded: true },
  );
}
