import pg from "pg";
import { createApp } from "../../src/app/app.ts";
import { openDatabase } from "../../src/db/database.ts";
import { startEventBus } from "../../src/events/bus.ts";
import { createRateLimiter } from "../../src/http/rate-limit.ts";
import { changeRequestListOrder } from "../../src/modules/change-request/change-request-list.ts";
import { commentListOrder } from "../../src/modules/comment/comment.service.ts";
import { memberListOrder } from "../../src/modules/member/member.service.ts";
import { specListOrder } from "../../src/modules/openapi-spec/openapi-spec-list.service.ts";
import { organizationListOrder } from "../../src/modules/organization/organization.service.ts";
import { siteListOrder } from "../../src/modules/site-structure/site.service.ts";
import { sectionListOrder } from "../../src/modules/site-structure/site-section-list.service.ts";
import { siteSpaceListOrder } from "../../src/modules/site-structure/site-space-list.service.ts";
import { spaceListOrder } from "../../src/modules/space/space-list.service.ts";
import { teamListOrder } from "../../src/modules/team/team.service.ts";
import { translationListOrder } from "../../src/modules/translation/translation.service.ts";
import { loadConfig } from "../../src/platform/config.ts";
import { createLogger } from "../../src/platform/logger.ts";
import type { BenchData } from "./seed.ts";
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
      // A GraphQL error answers 200: a request that failed would plan nothing of what it was meant to.
      const errors = request.path === "/graphql" ? (await response.json()).errors : undefined;
      if (errors) throw new Error(`${request.path} answered errors: ${JSON.stringify(errors)}`);
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

/** A list of the schema the EXPLAIN check orders every way it offers. */
interface OrderedList {
  /** The GraphQL input type prefix: `Site` for `[SiteOrder!]` and `SiteFilter`. */
  type: string;
  /** The public sort fields (the service's `ListOrder`). */
  fields: readonly string[];
  /** The query's own variables (the ids it reads under), besides `$orderBy` and `$filter`. */
  variables: string;
  /** The list selected under its parents, given its arguments. */
  select: (args: string) => string;
  /** A filter that keeps the bench's rows, so the filtered statement is planned on real data. */
  filter: Record<string, unknown>;
}

const nodes = "totalCount nodes { id }";
const since = "2000-01-01T00:00:00.000Z";

/**
 * One GraphQL list request per list, sort field and direction of `orderBy` (with a filter, and with `last`,
 * which serves every page but the nested first ones through the keyset statement), so that `explainWorkloads`
 * plans each new order's statements on the bench's data. `run.ts` adds them to the EXPLAIN check's workloads.
 */
export function orderWorkloads(data: BenchData): Workload[] {
  const lists: OrderedList[] = [
    {
      type: "Organization",
      fields: Object.keys(organizationListOrder.fields),
      variables: "",
      select: (args) => `organizations(${args}) { ${nodes} }`,
      filter: { createdAfter: since },
    },
    {
      type: "Space",
      fields: Object.keys(spaceListOrder.fields),
      variables: "$org: ID!",
      select: (args) => `organization(id: $org) { spaces(${args}) { ${nodes} } }`,
      filter: { createdAfter: since },
    },
    {
      type: "Site",
      fields: Object.keys(siteListOrder.fields),
      variables: "$org: ID!",
      select: (args) => `organization(id: $org) { sites(${args}) { ${nodes} } }`,
      filter: { titleContains: "site" },
    },
    {
      type: "SiteSection",
      fields: Object.keys(sectionListOrder.fields),
      variables: "$org: ID!, $site: ID!",
      select: (args) => `siteSections(organizationId: $org, siteId: $site, ${args}) { ${nodes} }`,
      filter: { createdAfter: since },
    },
    {
      type: "SiteSpace",
      fields: Object.keys(siteSpaceListOrder.fields),
      variables: "$org: ID!, $site: ID!",
      select: (args) => `siteSpaces(organizationId: $org, siteId: $site, ${args}) { ${nodes} }`,
      filter: { createdAfter: since },
    },
    {
      type: "Member",
      fields: Object.keys(memberListOrder.fields),
      variables: "$org: ID!",
      select: (args) => `organization(id: $org) { members(${args}) { ${nodes} } }`,
      filter: { joinedAfter: since },
    },
    {
      type: "Team",
      fields: Object.keys(teamListOrder.fields),
      variables: "$org: ID!",
      select: (args) => `organization(id: $org) { teams(${args}) { ${nodes} } }`,
      filter: { createdAfter: since },
    },
    {
      type: "ChangeRequest",
      fields: Object.keys(changeRequestListOrder.fields),
      variables: "$space: ID!",
      select: (args) => `space(id: $space) { changeRequests(${args}) { ${nodes} } }`,
      filter: { createdAfter: since },
    },
    {
      type: "Comment",
      fields: Object.keys(commentListOrder.fields),
      variables: "$space: ID!",
      select: (args) => `space(id: $space) { commentThreads(${args}) { ${nodes} } }`,
      filter: { postedAfter: since },
    },
    {
      type: "OpenAPISpec",
      fields: Object.keys(specListOrder.fields),
      variables: "$org: ID!",
      select: (args) => `organization(id: $org) { openAPISpecs(${args}) { ${nodes} } }`,
      filter: { createdAfter: since },
    },
    {
      type: "Translation",
      fields: Object.keys(translationListOrder.fields),
      variables: "$org: ID!",
      select: (args) => `organization(id: $org) { translations(${args}) { ${nodes} } }`,
      filter: { createdAfter: since },
    },
  ];
  const ids = { org: data.organizationId, site: data.siteId, space: data.spaceId };
  const headers = { authorization: `Bearer ${data.token}`, "content-type": "application/json" };
  return lists.flatMap((list) => {
    const declared = [list.variables, `$orderBy: [${list.type}Order!], $filter: ${list.type}Filter`]
      .filter(Boolean)
      .join(", ");
    const query = `query Ordered${list.type}(${declared}) {
      first: ${list.select("first: 20, orderBy: $orderBy, filter: $filter")}
      last: ${list.select("last: 20, orderBy: $orderBy, filter: $filter")}
    }`;
    const used = Object.fromEntries(Object.entries(ids).filter(([name]) => list.variables.includes(`$${name}:`)));
    return list.fields.flatMap((field) =>
      (["ASC", "DESC"] as const).map((direction) => ({
        name: `EXPLAIN ${list.type} orderBy ${field} ${direction}`,
        request: {
          method: "POST",
          path: "/graphql",
          headers,
          body: JSON.stringify({ query, variables: { ...used, orderBy: [{ field, direction }], filter: list.filter } }),
        },
        comparisons: [],
      })),
    );
  });
}
