import type pg from "pg";
import { type ReplicaFailed, replicaFailure } from "./read-replicas.ts";

/** How often each instance reads its replicas' replay positions and the primary's position (lag and state). */
export const replicaPollMs = 1000;

/** How a replica is named in /readyz, /metrics and the log: where it is, never its credentials. */
export function replicaName(url: string): string {
  const { hostname, port, pathname } = new URL(url);
  return `${hostname}:${port || "5432"}${pathname}`;
}

export interface ReplicaPools {
  /** For Prisma's adapter (which takes a `pg.Pool`): statements and connections fall back to the primary's pool. */
  prismaPool: pg.Pool;
  /** For the hand-written reads (their fallback is read-replicas.ts's `withPrimaryFallback`). */
  readPool: pg.Pool;
  probe(): Promise<{ inRecovery: boolean; replayed: string | null }>;
  close(): Promise<void>;
}

/**
 * A replica's pools, with the primary's settings (`settings`: size, waits, statement limits) and a one-connection
 * pool of its own for the poll, so that a busy replica still reports its state.
 */
export function openReplicaPools(
  driver: typeof pg,
  url: string,
  primary: pg.Pool,
  failed: ReplicaFailed,
  settings: { poolOptions: pg.PoolConfig; readPoolOptions: pg.PoolConfig },
): ReplicaPools {
  const pool = new driver.Pool({ ...settings.poolOptions, connectionString: url });
  const readPool = new driver.Pool({ ...settings.readPoolOptions, connectionString: url });
  const probePool = new driver.Pool({ ...settings.poolOptions, connectionString: url, max: 1 });
  // An idle connection of a replica that went away is dropped by its pool: the next statement there fails over to the
  // primary and marks the replica down (read-replicas.ts). Unheard, the 'error' would end the process.
  const ignoreIdleError = () => {};
  for (const each of [pool, readPool, probePool]) each.on("error", ignoreIdleError);

  // Prisma's adapter checks out connections with `connect()` (its transactions) and sends single statements with
  // `query(config)`; both run on the primary when the replica fails. The proxy is still a `pg.Pool` to the adapter.
  const connect = async (): Promise<pg.PoolClient> => {
    try {
      return await pool.connect();
    } catch (error) {
      const failure = replicaFailure(error);
      if (!failure) throw error;
      failed(failure, error);
      return primary.connect();
    }
  };
  const query = async (config: pg.QueryConfig): Promise<pg.QueryResult> => {
    try {
      return await pool.query(config);
    } catch (error) {
      const failure = replicaFailure(error);
      if (!failure) throw error;
      failed(failure, error);
      return primary.query(config);
    }
  };
  const prismaPool = new Proxy(pool, {
    get(target, key, receiver) {
      if (key === "connect") return connect;
      if (key === "query") return query;
      return Reflect.get(target, key, receiver);
    },
  });

  return {
    prismaPool,
    readPool,
    async probe() {
      const { rows } = await probePool.query<{ in_recovery: boolean; replayed: string | null }>(
        "SELECT pg_is_in_recovery() AS in_recovery, pg_last_wal_replay_lsn()::text AS replayed",
      );
      return { inRecovery: rows[0]?.in_recovery ?? false, replayed: rows[0]?.replayed ?? null };
    },
    close: async () => {
      await Promise.all([pool.end(), readPool.end(), probePool.end()]);
    },
  };
}
