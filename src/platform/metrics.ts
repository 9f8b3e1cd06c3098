import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { Database } from "../db/database.ts";
import type { ObserveJob } from "../jobs/engine.ts";
import { countJobsByStatus } from "../jobs/queue.ts";

/** What one request was, for its metric labels: the route template (never the raw path) and the operation. */
export interface RequestLabels {
  route: string;
  operation: string;
}

export interface Metrics {
  /** The Prometheus text exposition of every metric. */
  render(): Promise<string>;
  contentType: string;
  observeRequest(labels: RequestLabels & { method: string; status: number; seconds: number }): void;
  observeJob: ObserveJob;
}

/** One registry per app, so several apps in one process (tests) keep separate counts. */
export interface MetricSources {
  /** The bytes each in-process cache holds, by cache name (each bounded by its configured budget). */
  cacheBytes(): Record<string, number>;
  /** GraphQL requests answered as repeats of an admitted query (src/graphql/repeated-queries.ts) since the start. */
  repeatedQueries(): number;
  /** Requests waiting for a place of their caller (src/http/caller-places.ts) now. */
  waitingForCallerTurn(): number;
  /** Large request bodies waiting for their turn to arrive (src/http/large-bodies.ts) now. */
  largeBodiesWaiting(): number;
  /** The GraphQL WebSockets (src/http/graphql-websocket.ts): open now, their streams, refused since the start. */
  webSockets(): WebSocketStats;
}

/** Why a WebSocket was closed as soon as it opened: the label of `graphql_websockets_refused_total`. */
export type WebSocketRefusal = "address_limit" | "overloaded";

/** What `/metrics` reports of the GraphQL WebSockets. */
export interface WebSocketStats {
  /** Sockets open now. */
  open: number;
  /** Operations streaming over them now: subscriptions (and incremental `@defer`/`@stream` answers). */
  streams: number;
  /** Sockets closed as they opened since the start, by reason. */
  refused: Record<WebSocketRefusal, number>;
}

export function createMetrics(db: Database, sources: MetricSources): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: "http_requests_total",
    help: "HTTP requests by route template, operation (REST operation id or GraphQL operation name) and status.",
    labelNames: ["method", "route", "operation", "status"] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: "http_request_duration_seconds",
    help: "HTTP request latency by route template and operation.",
    labelNames: ["method", "route", "operation"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  // GraphQL operation names come from clients: past this many, new ones share one label (bounded series).
  const maxOperations = 500;
  const operations = new Set<string>();
  const operationLabel = (operation: string) => {
    if (operations.has(operation)) return operation;
    if (operations.size >= maxOperations) return "other";
    operations.add(operation);
    return operation;
  };
  let countedStatements = 0;
  new Counter({
    name: "db_sql_statements_total",
    help: "SQL statements sent by Prisma since the start.",
    registers: [registry],
    collect() {
      const now = db.statementCount();
      this.inc(now - countedStatements);
      countedStatements = now;
    },
  });
  const counted = { primary: 0, replica: 0, fallbacks: 0 };
  new Counter({
    name: "db_reads_total",
    help: "GraphQL queries and REST GETs by the server they were sent to: primary or replica (DATABASE_REPLICA_URL).",
    labelNames: ["server"] as const,
    registers: [registry],
    collect() {
      const now = db.reads.routed();
      for (const server of ["primary", "replica"] as const) {
        this.inc({ server }, now[server] - counted[server]);
        counted[server] = now[server];
      }
    },
  });
  new Counter({
    name: "db_replica_fallbacks_total",
    help: "Statements that failed on a replica (down, or cancelled by a conflict with recovery) and ran on the primary.",
    registers: [registry],
    collect() {
      const now = db.reads.fallbacks();
      this.inc(now - counted.fallbacks);
      counted.fallbacks = now;
    },
  });
  new Gauge({
    name: "db_replica_up",
    help: "1 when a read replica serves reads; 0 when it is down or lags beyond DATABASE_REPLICA_MAX_LAG_SECONDS.",
    labelNames: ["replica", "state"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const { name, state } of db.reads.replicas()) this.set({ replica: name, state }, state === "up" ? 1 : 0);
    },
  });
  new Gauge({
    name: "db_replica_lag_seconds",
    help: "How long ago the primary was where a replica's replay is now (absent while it is down).",
    labelNames: ["replica"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const { name, lagSeconds } of db.reads.replicas()) {
        if (lagSeconds !== null) this.set({ replica: name }, lagSeconds);
      }
    },
  });
  let countedRepeats = 0;
  new Counter({
    name: "graphql_repeated_queries_total",
    help: "GraphQL requests answered as repeats of a query that ran once without errors, past yoga's HTTP layer.",
    registers: [registry],
    collect() {
      const now = sources.repeatedQueries();
      this.inc(now - countedRepeats);
      countedRepeats = now;
    },
  });
  new Gauge({
    name: "http_requests_waiting_turn",
    help: "Requests waiting for one of their caller's places: a caller sending more at once than its share runs.",
    registers: [registry],
    collect() {
      this.set(sources.waitingForCallerTurn());
    },
  });
  new Gauge({
    name: "http_large_bodies_waiting",
    help: "Request bodies over 64 KiB waiting for their turn to arrive: large bodies arrive one at a time.",
    registers: [registry],
    collect() {
      this.set(sources.largeBodiesWaiting());
    },
  });
  new Gauge({
    name: "graphql_websockets_open",
    help: "GraphQL WebSockets (graphql-ws at /graphql) open in this process.",
    registers: [registry],
    collect() {
      this.set(sources.webSockets().open);
    },
  });
  new Gauge({
    name: "graphql_websocket_subscriptions_open",
    help: "Operations streaming over this process's GraphQL WebSockets: subscriptions and incremental answers.",
    registers: [registry],
    collect() {
      this.set(sources.webSockets().streams);
    },
  });
  const countedRefusals = new Map<string, number>();
  new Counter({
    name: "graphql_websockets_refused_total",
    help: "GraphQL WebSockets closed as they opened: address_limit (MAX_WEBSOCKETS_PER_ADDRESS), overloaded (shedding).",
    labelNames: ["reason"] as const,
    registers: [registry],
    collect() {
      for (const [reason, now] of Object.entries(sources.webSockets().refused)) {
        this.inc({ reason }, now - (countedRefusals.get(reason) ?? 0));
        countedRefusals.set(reason, now);
      }
    },
  });
  new Gauge({
    name: "cache_bytes",
    help: "Bytes held by each in-process cache: GraphQL document texts, converted content, PDFs (docs/heavy-work.md).",
    labelNames: ["cache"] as const,
    registers: [registry],
    collect() {
      for (const [cache, bytes] of Object.entries(sources.cacheBytes())) this.set({ cache }, bytes);
    },
  });
  new Gauge({
    name: "jobs_queue_depth",
    help: "Persisted jobs by status (pending jobs are the queue; running ones are claimed).",
    labelNames: ["status"] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const [status, count] of Object.entries(await countJobsByStatus(db.sql))) this.set({ status }, count);
    },
  });
  const jobDuration = new Histogram({
    name: "jobs_duration_seconds",
    help: "Job runs of this process by type and outcome (done; retry: failed with attempts left; failed: for good).",
    labelNames: ["type", "outcome"] as const,
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300],
    registers: [registry],
  });
  const jobFailures = new Counter({
    name: "jobs_failures_total",
    help: "Failed job runs of this process by type; final is true when the job is out of attempts.",
    labelNames: ["type", "final"] as const,
    registers: [registry],
  });
  return {
    contentType: registry.contentType,
    observeJob({ type, outcome, seconds }) {
      jobDuration.observe({ type, outcome }, seconds);
      if (outcome !== "done") jobFailures.inc({ type, final: String(outcome === "failed") });
    },
    render: () => registry.metrics(),
    observeRequest({ method, route, status, seconds, operation: sent }) {
      const operation = operationLabel(sent);
      requests.inc({ method, route, operation, status: String(status) });
      duration.observe({ method, route, operation }, seconds);
    },
  };
}
