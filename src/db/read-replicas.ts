import { walPosition } from "../lib/wal-position.ts";
import type { PrismaClient } from "./generated/client.ts";
import type { DriverQueries, SqlReader } from "./sql.ts";

/** The clients one read operation runs on: a replica's, or the primary's. */
export interface ReadClients {
  prisma: PrismaClient;
  sql: SqlReader;
}

/** `up`: serves reads; `lagging`: reachable but further behind than the bound; `down`: unreachable. */
type ReplicaState = "up" | "lagging" | "down";

export interface ReplicaStatus {
  /** host:port/database, never the credentials. */
  name: string;
  state: ReplicaState;
  /** How long ago the primary was where the replica's replay is now (0: caught up); null when unknown. */
  lagSeconds: number | null;
}

/**
 * Where reads run. With no replica every read runs on the primary. With replicas (DATABASE_REPLICA_URL), a read runs
 * on an `up` replica unless its person wrote recently and no replica has replayed that write yet (read-your-writes).
 * Writes, transactions of mutations, jobs and LISTEN never come here: they use the primary's clients.
 */
export interface ReadRouting {
  /** The clients for one read operation of `person` (a user id; undefined for anonymous callers). */
  forReader(person: string | undefined): ReadClients | Promise<ReadClients>;
  /**
   * Called once a write of `person` has committed: their reads stay on the primary until a replica replays it.
   * Resolves with the primary's position then, for the other instances (`heard`); undefined without replicas.
   */
  wrote(person: string): Promise<string | undefined>;
  /** Another instance's `wrote`: this instance routes the person's reads the same way. */
  heard(person: string, position: string): void;
  replicas(): ReplicaStatus[];
  /** Read operations routed since the start, by server (a metric). */
  routed(): { primary: number; replica: number };
  /** Statements that failed on a replica and ran again on the primary since the start (a metric). */
  fallbacks(): number;
  close(): Promise<void>;
}

/** Every read on the primary: PGlite, or PostgreSQL without DATABASE_REPLICA_URL. */
export function primaryOnlyReads(primary: ReadClients): ReadRouting {
  let routed = 0;
  return {
    forReader() {
      routed += 1;
      return primary;
    },
    wrote: async () => undefined,
    heard: () => {},
    replicas: () => [],
    routed: () => ({ primary: routed, replica: 0 }),
    fallbacks: () => 0,
    close: async () => {},
  };
}

/** What a replica's clients report when a statement failed there and ran on the primary instead. */
export type ReplicaFailed = (failure: ReplicaFailure, error: unknown) => void;

/** One replica as the routing sees it; database.ts builds its clients on pools of its own. */
interface Replica {
  name: string;
  clients: ReadClients;
  /** Whether it is a standby, and the last WAL position it replayed (one statement, off the read pools). */
  probe(): Promise<{ inRecovery: boolean; replayed: string | null }>;
  close(): Promise<void>;
}

export interface ReadRoutingOptions {
  primary: ReadClients;
  /** The primary's current WAL write position, `pg_current_wal_lsn()` (not counted with the app's statements). */
  primaryPosition(): Promise<string>;
  /** Each replica, built with what its clients call when a statement fails there. */
  replicas: ((failed: ReplicaFailed) => Replica)[];
  /** A replica further behind than this serves no reads (DATABASE_REPLICA_MAX_LAG_SECONDS). */
  maxLagMs: number;
  /** How often the replicas' state is polled in the background. */
  pollMs: number;
  onStateChange(status: ReplicaStatus, error?: unknown): void;
}

/** A replica's replay position read this recently is reused by the reads of people with a pending write. */
const replayCacheMs = 20;
/** Where the primary's position could not be read after a write: its person reads from the primary until expiry. */
const unknownPosition = 1n << 64n;

interface ReplicaRuntime {
  replica: Replica;
  state: ReplicaState;
  replayed: bigint;
  /** performance.now() of the last replay position read. */
  readAt: number;
  lagSeconds: number | null;
  refreshing?: Promise<void>;
}

/**
 * Routes reads to replicas with read-your-writes by WAL position: after a person's write, the primary's position is
 * remembered (here, and on the other instances through the event bus: src/events/write-positions.ts); that person's
 * reads go to a replica whose replay has reached it, else to the primary. A background poll keeps each replica's state and its
 * lag: the age of the oldest sample of the primary's position the replica has not replayed.
 */
export async function createReadRouting(options: ReadRoutingOptions): Promise<ReadRouting> {
  const { primary, maxLagMs, pollMs } = options;
  let fallbacks = 0;
  const replicas: ReplicaRuntime[] = options.replicas.map((open) => {
    const failed: ReplicaFailed = (failure, error) => {
      fallbacks += 1;
      if (failure === "down") down(runtime, error);
    };
    const runtime: ReplicaRuntime = {
      replica: open(failed),
      state: "down",
      replayed: 0n,
      readAt: Number.NEGATIVE_INFINITY,
      lagSeconds: null,
    };
    return runtime;
  });
  /** The primary's position over the last `maxLagMs` (and the newest sample older than that), oldest first. */
  const samples: { at: number; position: bigint }[] = [];
  const pending = new Map<string, { position: bigint; at: number }>();
  let next = 0;
  const counts = { primary: 0, replica: 0 };
  // An entry this old is satisfied by any replica within the bound: the primary's position was sampled after it.
  const pendingExpiryMs = maxLagMs + 2 * pollMs;

  /** The replicas serving reads, kept at each change of state rather than filtered per read. */
  let ready: ReplicaRuntime[] = [];
  const setState = (runtime: ReplicaRuntime, state: ReplicaState, error?: unknown) => {
    if (runtime.state === state) return;
    runtime.state = state;
    ready = replicas.filter((each) => each.state === "up");
    options.onStateChange(status(runtime), error);
  };
  const down = (runtime: ReplicaRuntime, error: unknown) => {
    runtime.lagSeconds = null;
    setState(runtime, "down", error);
  };
  const status = (runtime: ReplicaRuntime): ReplicaStatus => ({
    name: runtime.replica.name,
    state: runtime.state,
    lagSeconds: runtime.lagSeconds,
  });

  function lagOf(replayed: bigint, now: number): { lagging: boolean; lagSeconds: number } {
    const behind = samples.find((sample) => sample.position > replayed);
    const lagMs = behind ? now - behind.at : 0;
    return { lagging: lagMs > maxLagMs, lagSeconds: lagMs / 1000 };
  }

  async function refresh(runtime: ReplicaRuntime): Promise<void> {
    try {
      const { inRecovery, replayed } = await runtime.replica.probe();
      // A server out of recovery is no replica of this primary (promoted, or the primary itself named by mistake).
      if (!inRecovery || replayed === null) {
        down(runtime, new Error(inRecovery ? "no WAL replayed yet" : "not in recovery"));
        return;
      }
      const now = performance.now();
      runtime.replayed = walPosition(replayed);
      runtime.readAt = now;
      const { lagging, lagSeconds } = lagOf(runtime.replayed, now);
      runtime.lagSeconds = lagSeconds;
      setState(runtime, lagging ? "lagging" : "up");
    } catch (error) {
      down(runtime, error);
    }
  }

  /** One replay read at a time per replica, reused for `replayCacheMs`. */
  function freshReplay(runtime: ReplicaRuntime): Promise<void> {
    if (performance.now() - runtime.readAt < replayCacheMs) return Promise.resolve();
    runtime.refreshing ??= refresh(runtime).finally(() => {
      runtime.refreshing = undefined;
    });
    return runtime.refreshing;
  }

  async function poll(): Promise<void> {
    const now = performance.now();
    try {
      samples.push({ at: now, position: walPosition(await options.primaryPosition()) });
    } catch {
      // The primary's own health is /readyz's to report; the replicas keep their last lag meanwhile.
    }
    const cutoff = now - maxLagMs;
    while ((samples[1]?.at ?? Number.POSITIVE_INFINITY) <= cutoff) samples.shift();
    await Promise.all(replicas.map(refresh));
    for (const [person, write] of pending) if (now - write.at > pendingExpiryMs) pending.delete(person);
  }

  /** Keeps the person's latest write (positions heard from other instances may arrive out of order). */
  const remember = (person: string, position: bigint, at: number) => {
    const known = pending.get(person);
    if (!known || known.position < position) pending.set(person, { position, at });
  };
  const route = (clients: ReadClients, server: "primary" | "replica") => {
    counts[server] += 1;
    return clients;
  };
  /** One of `among`, in turn. */
  const pick = (among: ReplicaRuntime[]) => {
    next = (next + 1) % among.length;
    const chosen = among[next];
    return chosen ? route(chosen.replica.clients, "replica") : route(primary, "primary");
  };

  async function afterRefresh(person: string, position: bigint): Promise<ReadClients> {
    await Promise.all(ready.map(freshReplay));
    const caughtUp = ready.filter((runtime) => runtime.replayed >= position);
    if (caughtUp.length === 0) return route(primary, "primary");
    if (caughtUp.length === replicas.length) pending.delete(person);
    return pick(caughtUp);
  }

  await poll();
  let polling: Promise<void> | undefined;
  const timer = setInterval(() => {
    polling ??= poll().finally(() => {
      polling = undefined;
    });
  }, pollMs);
  timer.unref();

  return {
    forReader(person) {
      if (ready.length === 0) return route(primary, "primary");
      const write = person === undefined ? undefined : pending.get(person);
      if (person === undefined || !write) return pick(ready);
      const caughtUp = ready.filter((runtime) => runtime.replayed >= write.position);
      if (caughtUp.length > 0) return pick(caughtUp);
      return afterRefresh(person, write.position);
    },
    async wrote(person) {
      const at = performance.now();
      try {
        const position = await options.primaryPosition();
        remember(person, walPosition(position), at);
        return position;
      } catch {
        // Unknown: this person reads from the primary until the entry expires.
        remember(person, unknownPosition, at);
        return undefined;
      }
    },
    heard(person, position) {
      remember(person, walPosition(position), performance.now());
    },
    replicas: () => replicas.map(status),
    routed: () => ({ ...counts }),
    fallbacks: () => fallbacks,
    async close() {
      clearInterval(timer);
      await polling;
      await Promise.all(replicas.map((runtime) => runtime.replica.close()));
    },
  };
}

/**
 * What a replica's failure means for a read: `down` (the connection failed or the server is shutting down: the
 * replica is marked down and the statement runs on the primary), `retry` (a conflict with recovery cancelled it, or
 * it was a write, which a standby refuses: it runs on the primary, the replica stays up), or undefined (the statement's own error, e.g. a bad value: thrown).
 */
export type ReplicaFailure = "down" | "retry";

export function replicaFailure(error: unknown): ReplicaFailure | undefined {
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  const sqlState = typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
  // No SQLSTATE: a socket error (ECONNREFUSED, a closed connection) or the pool's connection time-out.
  if (sqlState === undefined) return "down";
  if (sqlState.startsWith("08") || sqlState.startsWith("57P") || sqlState === "53300") return "down";
  // A conflict with recovery cancelled it, or it wrote (a read operation should not; on the primary it still works).
  if (sqlState === "40001" || sqlState === "25006") return "retry";
  return undefined;
}

/** Runs `replica`'s statements, and on the primary those the replica failed (see `replicaFailure`). */
export function withPrimaryFallback(
  replica: DriverQueries,
  primary: DriverQueries,
  failed: ReplicaFailed,
): DriverQueries {
  return {
    async arrays(text, params) {
      try {
        return await replica.arrays(text, params);
      } catch (error) {
        const failure = replicaFailure(error);
        if (!failure) throw error;
        failed(failure, error);
        return primary.arrays(text, params);
      }
    },
  };
}
