import pg from "pg";
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config.ts";
import { openDatabase } from "../../src/db/database.ts";
import { startEventBus } from "../../src/events/bus.ts";
import { createRateLimiter } from "../../src/http/rate-limit.ts";
import { createLogger } from "../../src/logger.ts";
import type { Workload } from "./workloads.ts";

/** Tables smaller than this may be scanned: the planner rightly prefers a scan of a few pages to an index. */
export const seqScanRowThreshold = 300;

export interface SeqScan {
  table: string;
  rows: number;
  sql: string;
  /** With sequential scans disabled the planner reaches the table through an index: the scan was its choice. */
  indexAvailable: boolean;
}

export interface ExplainReport {
  statements: number;
  seqScans: SeqScan[];
}

/** Scans of a table with no index the statement could use: these need one. */
export const missingIndexes = (report: ExplainReport) => report.seqScans.filter((scan) => !scan.indexAvailable);

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  Plans?: PlanNode[];
}

function scannedTables(plan: PlanNode): string[] {
  const own = plan["Node Type"] === "Seq Scan" && plan["Relation Name"] ? [plan["Relation Name"]] : [];
  return [...own, ...(plan.Plans ?? []).flatMap(scannedTables)];
}

/**
 * Runs every workload once through the app in this process, captures the SQL it sends (Prisma's and the hand-written reads), and
 * EXPLAINs each statement with its parameters on the generated data: any sequential scan of a table above
 * `seqScanRowThreshold` rows is reported.
 */
export async function explainWorkloads(databaseUrl: string, workloads: Workload[]): Promise<ExplainReport> {
  const db = await openDatabase({ kind: "postgres", url: databaseUrl });
  const captured = new Map<string, unknown[]>();
  db.onStatement((sql, params) => {
    if (!/^\s*(BEGIN|COMMIT|ROLLBACK)/i.test(sql)) captured.set(sql, params);
  });
  const config = loadConfig({ LOG_LEVEL: "silent", RATE_LIMIT_TOKEN: "0", RATE_LIMIT_ANONYMOUS: "0" });
  const events = await startEventBus(db, createLogger("silent"));
  const logger = createLogger("silent");
  const app = createApp({ config, db, events, logger, rateLimiter: await createRateLimiter(config, logger) });
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    for (const { request } of workloads) {
      const response = await app.fetch(new Request(`http://bench.test${request.path}`, request));
      if (!response.ok) throw new Error(`${request.method} ${request.path} answered ${response.status}`);
    }
    const tableRows = new Map<string, number>();
    const seqScans: SeqScan[] = [];
    const scansOf = async (sql: string, params: unknown[]) => {
      const { rows } = await client.query<{ "QUERY PLAN": { Plan: PlanNode }[] }>(
        `EXPLAIN (FORMAT JSON) ${sql}`,
        params,
      );
      return scannedTables((rows[0]?.["QUERY PLAN"][0] as { Plan: PlanNode }).Plan);
    };
    for (const [sql, params] of captured) {
      const scanned = await scansOf(sql, params);
      if (scanned.length === 0) continue;
      await client.query("SET enable_seqscan = off");
      const forced = await scansOf(sql, params);
      await client.query("RESET enable_seqscan");
      for (const table of scanned) {
        if (!tableRows.has(table)) {
          const count = await client.query<{ count: string }>(`SELECT count(*) FROM ${pg.escapeIdentifier(table)}`);
          tableRows.set(table, Number(count.rows[0]?.count));
        }
        const rowCount = tableRows.get(table) as number;
        if (rowCount > seqScanRowThreshold) {
          seqScans.push({ table, rows: rowCount, sql, indexAvailable: !forced.includes(table) });
        }
      }
    }
    return { statements: captured.size, seqScans };
  } finally {
    await client.end();
    await events.close();
    await db.close();
  }
}
