import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { type Prisma, PrismaClient } from "./generated/client.ts";
import { createSqlReader, type SqlReader } from "./sql.ts";

/** The client or an interactive transaction: functions taking it can run inside a caller's transaction. */
export type PrismaExecutor = PrismaClient | Prisma.TransactionClient;

/** A connection that accepts several statements in one string, for migrations and test set-up. */
export interface RawConnection {
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>;
  exec(script: string): Promise<void>;
}

export interface Database {
  prisma: PrismaClient;
  /** Hand-written reads on the same driver, for the hot paths (see sql.ts). */
  sql: SqlReader;
  kind: "pglite" | "postgres";
  /** Runs `work` on one dedicated connection (needed for session-level locks and multi-statement scripts). */
  withRawConnection<T>(work: (connection: RawConnection) => Promise<T>): Promise<T>;
  /** SQL statements sent by Prisma and `sql` since the database was opened (tests and benchmarks assert on it). */
  statementCount(): number;
  /** Calls `listener` with every statement Prisma or `sql` sends (the benchmark EXPLAINs them). */
  onStatement(listener: StatementListener): void;
  /** PostgreSQL LISTEN: `onMessage` gets every NOTIFY payload on `channel`, from any process on this database. */
  listen(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>>;
  /** PostgreSQL NOTIFY (delivered once the surrounding transaction, if any, commits). */
  notify(channel: string, payload: string): Promise<void>;
  close(): Promise<void>;
}

export type DatabaseLocation = { kind: "pglite"; dataDir: string | "memory://" } | { kind: "postgres"; url: string };

export async function openDatabase(location: DatabaseLocation): Promise<Database> {
  return location.kind === "pglite" ? openPGlite(location.dataDir) : openPostgres(location.url);
}

type StatementListener = (sql: string, params: unknown[]) => void;

function countingClients(adapter: PrismaPGlite | PrismaPg): {
  prisma: PrismaClient;
  sql: SqlReader;
  statementCount: () => number;
  onStatement: (listener: StatementListener) => void;
} {
  const prisma = new PrismaClient({ adapter, log: [{ emit: "event", level: "query" }] });
  let statements = 0;
  const listeners: StatementListener[] = [];
  prisma.$on("query", (event) => {
    statements += 1;
    if (listeners.length > 0) for (const listener of listeners) listener(event.query, JSON.parse(event.params));
  });
  // A second connection object of the same factory: it shares the pool (or the PGlite instance) with Prisma's.
  const sql = createSqlReader(adapter.connect(), (text, params) => {
    statements += 1;
    for (const listener of listeners) listener(text, params);
  });
  return {
    prisma: prisma as unknown as PrismaClient,
    sql,
    statementCount: () => statements,
    onStatement: (listener) => listeners.push(listener),
  };
}

async function openPGlite(dataDir: string): Promise<Database> {
  if (dataDir !== "memory://") mkdirSync(dataDir, { recursive: true });
  const pglite = await PGlite.create(dataDir);
  const { prisma, sql, statementCount, onStatement } = countingClients(new PrismaPGlite(pglite));
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
    kind: "pglite",
    // PGlite has a single connection: every caller already shares it.
    withRawConnection: (work) => work(raw),
    statementCount,
    onStatement,
    // PGlite is one process: its own LISTEN/NOTIFY reaches every subscriber there is.
    listen: (channel, onMessage) => pglite.listen(channel, onMessage),
    async notify(channel, payload) {
      await pglite.query("SELECT pg_notify($1, $2)", [channel, payload]);
    },
    async close() {
      await prisma.$disconnect();
      await pglite.close();
    },
  };
}

async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const { prisma, sql, statementCount, onStatement } = countingClients(new PrismaPg(pool));
  return {
    prisma,
    sql,
    kind: "postgres",
    async withRawConnection(work) {
      const client = await pool.connect();
      try {
        return await work({
          async query<Row>(sql: string, params?: unknown[]) {
            return (await client.query(sql, params)).rows as Row[];
          },
          async exec(script) {
            await client.query(script);
          },
        });
      } finally {
        client.release();
      }
    },
    statementCount,
    onStatement,
    async listen(channel, onMessage) {
      // LISTEN holds its connection for as long as it listens: a dedicated client, outside the pool.
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      client.on("notification", (message) => {
        if (message.channel === channel) onMessage(message.payload ?? "");
      });
      await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      return () => client.end();
    },
    async notify(channel, payload) {
      await pool.query("SELECT pg_notify($1, $2)", [channel, payload]);
    },
    async close() {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}
