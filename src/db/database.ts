import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { PrismaPg } from "@prisma/adapter-pg";
import type { QueryResult } from "pg";
import type { PrismaPGlite } from "pglite-prisma-adapter";
import { closeFilesToOthers } from "../platform/data-dir.ts";
import { traceStatement, tracingActive } from "../platform/tracing.ts";
import { type DataDirLock, lockDataDir } from "./data-dir-lock.ts";
import { type Prisma, PrismaClient } from "./generated/client.ts";
import { type Listening, listenWithReconnect } from "./listen.ts";
import { createPreparedReads } from "./pg-prepared-reads.ts";
import { openReplicaPools, replicaName, replicaPollMs } from "./pg-replica-pools.ts";
import { createClusterApart, templateFor } from "./pglite-cluster.ts";
import {
  createReadRouting,
  primaryOnlyReads,
  type ReadRouting,
  type ReplicaFailed,
  type ReplicaStatus,
  withPrimaryFallback,
} from "./read-replicas.ts";
import { createSqlReader, type DriverQueries, type SqlReader, typeParsers } from "./sql.ts";

/** The client or an interactive transaction: functions taking it can run inside a caller's transaction. */
export type PrismaExecutor = PrismaClient | Prisma.TransactionClient;

/** A connection that accepts several statements in one string, for migrations and test set-up. */
export interface RawConnection {
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>;
  exec(script: string): Promise<void>;
}

export interface Database {
  /** The primary's clients: writes, transactions, jobs and everything outside the read operations of requests. */
  prisma: PrismaClient;
  /** Hand-written reads on the same driver, for the hot paths (see sql.ts). */
  sql: SqlReader;
  /** The clients a request's read operation runs on: a replica's when there are replicas (read-replicas.ts). */
  reads: ReadRouting;
  kind: "pglite" | "postgres";
  /**
   * Runs `work` on one dedicated connection (needed for session-level locks and multi-statement scripts).
   * `unbounded`: for migrations, whose statements and lock waits may outlast a request's limits
   * (`requestStatementLimits`); their connection is closed afterwards rather than pooled with the limits lifted.
   */
  withRawConnection<T>(work: (connection: RawConnection) => Promise<T>, options?: { unbounded?: boolean }): Promise<T>;
  /** SQL statements sent by Prisma and `sql` since the database was opened (tests and benchmarks assert on it). */
  statementCount(): number;
  /** Calls `listener` with every statement Prisma or `sql` sends (the benchmark EXPLAINs them). */
  onStatement(listener: StatementListener): void;
  /** Calls `listener` when a pooled connection breaks while idle (the pool drops it and opens another when needed). */
  onConnectionError(listener: (error: Error) => void): void;
  /**
   * PostgreSQL LISTEN: `onMessage` gets every NOTIFY payload on `channel`, from any process on this database. A lost
   * connection is re-established (and LISTEN issued again) with backoff; `onConnectionLost` hears of each loss (and
   * each failed attempt), `onReconnected` of each return: NOTIFYs sent in between never arrive.
   */
  listen(
    channel: string,
    onMessage: (payload: string) => void,
    onConnectionLost?: (error: Error) => void,
    onReconnected?: () => void,
  ): Promise<Listening>;
  /** PostgreSQL NOTIFY (delivered once the surrounding transaction, if any, commits). */
  notify(channel: string, payload: string): Promise<void>;
  /**
   * The job engine's statements (src/jobs/engine.ts), outside Prisma and not counted: one statement with `values`,
   * or a script of several without; the last statement's rows.
   */
  engineSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  close(): Promise<void>;
}

/** PGlite's buffer pool (PostgreSQL's `shared_buffers`), set on its command line: the data directory is untouched. */
const pgliteSharedBuffers = "32MB";

/**
 * A PGlite directory is held by one process at a time (data-dir-lock.ts): `lock` is the one the caller took, else
 * opening takes it. Either way closing the database releases it. `template`: a PGlite cluster tarball (`dumpDataDir`)
 * a new cluster starts from instead of initdb (the tests' migrated template); ignored when `dataDir` already holds
 * one. Without it a new cluster is created apart (pglite-cluster.ts).
 */
export type DatabaseLocation =
  | { kind: "pglite"; dataDir: string | "memory://"; lock?: DataDirLock; template?: string }
  | { kind: "postgres"; url: string; replicas?: ReplicaSettings };

/** Read replicas of a PostgreSQL primary (DATABASE_REPLICA_URL, docs/operations.md). */
export interface ReplicaSettings {
  urls: string[];
  maxLagMs: number;
  /** Hears each replica's change of state (up, lagging, down), the first one included. */
  onStateChange(status: ReplicaStatus, error?: unknown): void;
}

/**
 * Opens PGlite or PostgreSQL. Each kind's driver is imported here, when opened: a process loads only the one it
 * runs on.
 */
export async function openDatabase(location: DatabaseLocation): Promise<Database> {
  if (location.kind === "postgres") return openPostgres(location.url, location.replicas);
  if (location.dataDir === "memory://") return openPGlite(location.dataDir, location.template);
  const { dataDir } = location;
  const lock = location.lock ?? lockDataDir(dataDir, "direct");
  try {
    const db = await openPGlite(dataDir, location.template);
    // PGlite (Emscripten's file system) chmods its files 0666 whatever the umask: DATA_DIR's own 0700 closes them to
    // other users, and its files lose group and other rights at each opening and closing, so that copies (backups)
    // keep them closed too.
    closeFilesToOthers(dataDir);
    return {
      ...db,
      async close() {
        await db.close();
        closeFilesToOthers(dataDir);
        lock.release();
      },
    };
  } catch (error) {
    lock.release();
    throw error;
  }
}

type StatementListener = (sql: string, params: unknown[]) => void;

/**
 * Prisma's client, constructed on first use. Constructing it parses its parameterization graph (heap and start time:
 * docs/performance.md), which an instance that only serves reads never needs: they go through `sql`, and start-up
 * checks through it too (its query engine already loads with the first statement). `then` reads as absent so that
 * resolving a promise with the client does not construct it.
 */
function constructedOnFirstUse(create: () => PrismaClient): { client: PrismaClient; disconnect(): Promise<void> } {
  let constructed: PrismaClient | undefined;
  const client = new Proxy({} as PrismaClient, {
    get(_target, key) {
      if (key === "then") return undefined;
      constructed ??= create();
      const value: unknown = Reflect.get(constructed, key);
      return typeof value === "function" ? value.bind(constructed) : value;
    },
  });
  return { client, disconnect: async () => constructed?.$disconnect() };
}

/** Statements sent by Prisma and `sql` of every client of one database (primary and replicas), and who hears them. */
interface StatementCounter {
  count: number;
  listeners: StatementListener[];
}

function newStatementCounter(): StatementCounter & Pick<Database, "statementCount" | "onStatement"> {
  const counter: StatementCounter = { count: 0, listeners: [] };
  return Object.assign(counter, {
    statementCount: () => counter.count,
    onStatement: (listener: StatementListener) => {
      counter.listeners.push(listener);
    },
  });
}

/** Prisma on the driver's adapter, and the hand-written reads (sql.ts) on the same driver, both counted. */
function countingClients(
  adapter: PrismaPGlite | PrismaPg,
  query: DriverQueries,
  counter: StatementCounter,
): { prisma: PrismaClient; disconnectPrisma(): Promise<void>; sql: SqlReader } {
  const prisma = constructedOnFirstUse(() => {
    const client = new PrismaClient({ adapter, log: [{ emit: "event", level: "query" }] });
    client.$on("query", (event) => {
      counter.count += 1;
      if (counter.listeners.length > 0) {
        for (const listener of counter.listeners) listener(event.query, JSON.parse(event.params));
      }
    });
    return client as unknown as PrismaClient;
  });
  const sql = createSqlReader(query, (text, params) => {
    counter.count += 1;
    for (const listener of counter.listeners) listener(text, params);
  });
  return { prisma: prisma.client, disconnectPrisma: prisma.disconnect, sql };
}

/** PGlite's WebAssembly, compiled once per process: a module is stateless, each database instantiates its own. */
let compiledPGlite: Promise<WebAssembly.Module> | undefined;

async function openPGlite(dataDir: string, template: string | undefined): Promise<Database> {
  const loadDataDir = templateFor(dataDir, template);
  // The directory exists: the lock file was written in it.
  if (dataDir !== "memory://" && !loadDataDir) await createClusterApart(dataDir);
  // PGlite's WebAssembly starts compiling now, read synchronously so that the compilation is under way on V8's worker
  // thread before this function first yields: the server builds its GraphQL schema meanwhile (main.ts), time of the
  // embedded start that was spent waiting for it.
  compiledPGlite ??= WebAssembly.compile(
    readFileSync(createRequire(import.meta.url).resolve("@electric-sql/pglite/pglite.wasm")),
  );
  const [{ PGlite }, { PrismaPGlite }, pgliteWasmModule] = await Promise.all([
    import("@electric-sql/pglite"),
    import("pglite-prisma-adapter"),
    compiledPGlite,
  ]);
  const pglite = await PGlite.create(dataDir, {
    pgliteWasmModule,
    loadDataDir,
    // PostgreSQL's default buffer pool is touched whole at start inside PGlite's WebAssembly memory, all of it
    // resident; the embedded default holds small data sets, and pages it evicts stay in the OS file cache.
    startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${pgliteSharedBuffers}`],
  });
  if (tracingActive()) {
    // No instrumentation knows PGlite: its statements (Prisma's outside transactions, the hand-written reads',
    // migrations') become spans here. PostgreSQL's are pg's instrumentation's.
    const query = pglite.query.bind(pglite);
    pglite.query = ((text: string, ...rest: unknown[]) =>
      traceStatement(text, () => (query as (...args: unknown[]) => Promise<unknown>)(text, ...rest))) as typeof query;
  }
  const counter = newStatementCounter();
  const { prisma, disconnectPrisma, sql } = countingClients(
    new PrismaPGlite(pglite),
    { arrays: (text, params) => pglite.query<unknown[]>(text, params, { rowMode: "array", parsers: typeParsers }) },
    counter,
  );
  const raw: RawConnection = {
    async query<Row>(sql: string, params?: unknown[]) {
      return (await pglite.query<Row>(sql, params)).rows;
    },
    async exec(script) {
      await pglite.exec(script);
    },
  };
  return {
    prisma,
    sql,
    reads: primaryOnlyReads({ prisma, sql }),
    kind: "pglite",
    // PGlite has a single connection: every caller already shares it.
    withRawConnection: (work) => work(raw),
    statementCount: counter.statementCount,
    onStatement: counter.onStatement,
    // PGlite has no connection to lose.
    onConnectionError: () => {},
    // PGlite is one process: its own LISTEN/NOTIFY reaches every subscriber there is.
    async listen(channel, onMessage) {
      const unlisten = await pglite.listen(channel, onMessage);
      // A closed PGlite has dropped its listeners already (and refuses the UNLISTEN).
      return { healthy: () => true, close: async () => (pglite.closed ? undefined : unlisten()) };
    },
    async notify(channel, payload) {
      await pglite.query("SELECT pg_notify($1, $2)", [channel, payload]);
    },
    async engineSql(text, values) {
      // PGlite's `query` takes one statement; its `exec` takes scripts but no parameters.
      if (values && values.length > 0) return pglite.query(text, values);
      const results = await pglite.exec(text);
      return { rows: results.at(-1)?.rows ?? [] };
    },
    async close() {
      await disconnectPrisma();
      await pglite.close();
    },
  };
}

/**
 * Every wait on PostgreSQL is bounded, so that a request answers (503 with Retry-After, src/lib/errors.ts) rather than
 * waits forever: for a pooled connection (a free one, or a new one to be opened: a connection whose backend was
 * terminated while it opened was seen to never settle), for a lock, and for a statement.
 */
const connectionWaitMs = 10_000;
/**
 * Every request session's settings: the bounds above, and no JIT compilation. JIT pays off for statements that run
 * for seconds over millions of rows; a request's statements are index reads, yet a READ member's visibility filter
 * made PostgreSQL's cost estimate cross `jit_above_cost` at 100x and spend 42 of a statement's 85 ms compiling
 * (docs/performance.md "Size").
 */
const requestStatementLimits = "-c lock_timeout=10000 -c statement_timeout=30000 -c jit=off";

async function openPostgres(url: string, replicas?: ReplicaSettings): Promise<Database> {
  const [{ default: pg }, { PrismaPg }] = await Promise.all([import("pg"), import("@prisma/adapter-pg")]);
  const poolOptions = { max: 10, connectionTimeoutMillis: connectionWaitMs, options: requestStatementLimits };
  const pool = new pg.Pool({ ...poolOptions, connectionString: url });
  // Hand-written reads have a pool of their own whose sessions always use a statement's generic plan: their
  // `id = ANY($1)` would otherwise be planned again on every call (PostgreSQL keeps choosing custom plans for an
  // array of unknown length), and planning the space read's joins cost twice running it. Prisma's statements keep
  // the default: they are unnamed, planned with their values.
  const readPoolOptions = {
    ...poolOptions,
    options: `-c plan_cache_mode=force_generic_plan ${requestStatementLimits}`,
  };
  const readPool = new pg.Pool({ ...readPoolOptions, connectionString: url });
  const connectionErrorListeners: ((error: Error) => void)[] = [];
  // An idle pooled connection that breaks (server restart, failover, pg_terminate_backend) is an 'error' of the pool;
  // unhandled it would end the process. The pool has already dropped the client.
  const onIdleError = (error: Error) => {
    for (const listener of connectionErrorListeners) listener(error);
  };
  pool.on("error", onIdleError);
  readPool.on("error", onIdleError);
  const parserFor = (oid: number) => typeParsers[oid] ?? pg.types.getTypeParser(oid, "text");
  const counter = newStatementCounter();
  const primaryQueries = createPreparedReads(readPool, parserFor);
  const { prisma, disconnectPrisma, sql } = countingClients(new PrismaPg(pool), primaryQueries, counter);
  const reads = replicas?.urls.length
    ? await createReadRouting({
        primary: { prisma, sql },
        primaryPosition: async () => {
          const { rows } = await pool.query<{ position: string }>("SELECT pg_current_wal_lsn()::text AS position");
          return rows[0]?.position ?? "0/0";
        },
        replicas: replicas.urls.map((replicaUrl) => (failed: ReplicaFailed) => {
          const replica = openReplicaPools(pg, replicaUrl, pool, failed, { poolOptions, readPoolOptions });
          const clients = countingClients(
            new PrismaPg(replica.prismaPool),
            withPrimaryFallback(createPreparedReads(replica.readPool, parserFor), primaryQueries, failed),
            counter,
          );
          return {
            name: replicaName(replicaUrl),
            clients: { prisma: clients.prisma, sql: clients.sql },
            probe: replica.probe,
            async close() {
              await clients.disconnectPrisma();
              await replica.close();
            },
          };
        }),
        maxLagMs: replicas.maxLagMs,
        pollMs: replicaPollMs,
        onStateChange: replicas.onStateChange,
      })
    : primaryOnlyReads({ prisma, sql });
  return {
    prisma,
    sql,
    reads,
    kind: "postgres",
    async withRawConnection(work, options) {
      const client = await pool.connect();
      // While checked out, the pool no longer listens for the client's errors: a break between two statements of
      // `work` would otherwise be unhandled. The client is then released as broken (the pool discards it).
      let broken: Error | undefined;
      const onError = (error: Error) => {
        broken = error;
      };
      client.on("error", onError);
      try {
        if (options?.unbounded) {
          await client.query("SET lock_timeout = 0; SET statement_timeout = 0");
          broken = new Error("A connection without the request limits is not pooled");
        }
        return await work({
          async query<Row>(sql: string, params?: unknown[]) {
            return (await client.query(sql, params)).rows as Row[];
          },
          async exec(script) {
            await client.query(script);
          },
        });
      } catch (error) {
        // A failed `work` may leave a transaction or a session lock open: the connection is not reused either.
        broken ??= error instanceof Error ? error : new Error(String(error));
        throw error;
      } finally {
        client.removeListener("error", onError);
        client.release(broken);
      }
    },
    statementCount: counter.statementCount,
    onStatement: counter.onStatement,
    onConnectionError: (listener) => connectionErrorListeners.push(listener),
    listen: (channel, onMessage, onConnectionLost, onReconnected) =>
      listenWithReconnect(pg, url, channel, onMessage, onConnectionLost, onReconnected),
    async notify(channel, payload) {
      await pool.query("SELECT pg_notify($1, $2)", [channel, payload]);
    },
    async engineSql(text, values) {
      // A script answers with one result per statement.
      const result: QueryResult | QueryResult[] = await pool.query(text, values);
      return { rows: (Array.isArray(result) ? result.at(-1)?.rows : result.rows) ?? [] };
    },
    async close() {
      await reads.close();
      await disconnectPrisma();
      await Promise.all([pool.end(), readPool.end()]);
    },
  };
}
