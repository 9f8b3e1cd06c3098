import { randomUUID } from "node:crypto";
import { IncomingMessage, type Server } from "node:http";
import { createTokenCache } from "../auth/token-cache.ts";
import type { Database } from "../db/database.ts";
import type { EventBus } from "../events/bus.ts";
import { hearWrites } from "../events/write-positions.ts";
import { createGraphQLServer } from "../graphql/server.ts";
import { answerHeaders } from "../http/answer-headers.ts";
import { createCallerPlaces } from "../http/caller-places.ts";
import { compressAnswers, createCompression } from "../http/compression.ts";
import { createCors } from "../http/cors.ts";
import { errorBoundary } from "../http/error-boundary.ts";
import { createGraphQLWebSockets } from "../http/graphql-websocket.ts";
import { createGuard } from "../http/guard.ts";
import { answerHeadRequests } from "../http/head.ts";
import { createLargeBodyTurns } from "../http/large-bodies.ts";
import { createLoadShedder } from "../http/load-shedding.ts";
import { observeRequests } from "../http/observe.ts";
import { composeMiddleware } from "../http/pipeline.ts";
import { createProbes, probePaths } from "../http/probes.ts";
import type { RateLimiter } from "../http/rate-limit.ts";
import type { ObserveJob } from "../jobs/engine.ts";
import { clientAddress } from "../lib/client-address.ts";
import { type Clock, systemClock } from "../platform/clock.ts";
import type { Config } from "../platform/config.ts";
import { describeError, type Logger } from "../platform/logger.ts";
import { type Exchange, type LogUnexpected, requestContextFactory, type ServerContext } from "../web/call.ts";
import {
  graphiqlAssetRoute,
  graphqlRoute,
  openApiRoute,
  plainRoute,
  preflightRoute,
  restApiRoute,
  rootRoute,
  routeInOrder,
} from "./routes.ts";
import "./module-wiring.ts";
import { contentPlainRoutes } from "../modules/content/content.public.ts";
import { openApiSpecPlainRoutes } from "../modules/openapi-spec/openapi-spec.public.ts";
import { samlPlainRoutes } from "../modules/saml-provider/saml-provider.public.ts";
import { instanceRole } from "../platform/instance.ts";
import { createMetrics } from "../platform/metrics.ts";
import { compileRoutes } from "../rest/compiled-routes.ts";
import { createRestHandler } from "../rest/router.ts";
import { createHeavyWork } from "../workers/heavy-work.ts";
import { restRoutes } from "./rest-routes.ts";
import { schema } from "./schema.ts";

export { defaultGraphiQLQuery } from "../graphql/graphiql.ts";
export type { ServerContext } from "../web/call.ts";

export interface AppOptions {
  config: Config;
  db: Database;
  events: EventBus;
  logger: Logger;
  /** Counts requests per caller (memory or Redis); its creator closes it. */
  rateLimiter: RateLimiter;
  clock?: Clock;
}

export interface App {
  fetch(request: Request, server?: ServerContext): Promise<Response>;
  /** From now on `/readyz` answers 503, so load balancers stop sending traffic while requests in flight finish. */
  stopAcceptingTraffic(): void;
  /** Serves GraphQL over WebSocket (`graphql-ws`) on `server`'s upgrades of `/graphql`, beside `fetch`. */
  serveWebSockets(server: Server): void;
  /** Closes the open WebSockets (1001): their subscriptions end. */
  closeWebSockets(): void;
  /** Ends the worker threads (once the server has stopped). */
  close(): Promise<void>;
  /** Counts a job run in `/metrics` (the job engine of this process reports each). */
  observeJob: ObserveJob;
}

/**
 * A large body waits 10 s for its turn at most, and keeps it while it arrives at 256 KiB a second or faster (a
 * megabyte in 4 s: a slow mobile upload), for a second at least.
 */
const largeBodyTurnOptions = { waitMs: 10_000, minBytesPerSecond: 256 * 1024, minTurnMs: 1000 };

const plainRoutes = [...contentPlainRoutes, ...openApiSpecPlainRoutes, ...samlPlainRoutes];

/** The exchange of a request as it arrives: its id, its caller's address, metric labels to be filled by its route. */
function newExchange(request: Request, server: ServerContext | undefined, trustProxyHops: number): Exchange {
  const url = new URL(request.url);
  const peer = server?.req?.socket.remoteAddress ?? "local";
  return {
    request,
    url,
    requestId: request.headers.get("x-request-id")?.slice(0, 64) || randomUUID(),
    clientAddress: clientAddress(peer, request.headers.get("x-forwarded-for"), trustProxyHops),
    nodeRequest: server?.req instanceof IncomingMessage ? server.req : undefined,
    // Unmatched paths share one label: raw paths would give every id its own time series.
    labels: { route: probePaths.has(url.pathname) ? url.pathname : "unmatched", operation: "" },
  };
}

/**
 * The composition root: one fetch handler for the whole service (`/graphql`, `/v1/*`, plain routes, health and
 * metrics), assembled from the HTTP middleware in order, the routes in order, and the one GraphQL pipeline that
 * `/graphql` and the REST routes both execute through.
 */
export function createApp({ config, db, events, logger, rateLimiter, clock = systemClock }: AppOptions): App {
  const logUnexpected: LogUnexpected = (requestId) => (error) =>
    logger.error("unexpected error", { requestId, ...describeError(error) });
  const work = createHeavyWork(config, (error) =>
    logger.error("worker thread error outside a job", describeError(error)),
  );
  const createContext = requestContextFactory({ config, db, events, clock, work });
  const graphql = createGraphQLServer({ config, reads: db.reads, createContext, logUnexpected });
  hearWrites(events, db.reads);
  const rest = createRestHandler(compileRoutes(schema, restRoutes));
  const callerPlaces = createCallerPlaces({
    perCaller: config.shedMaxInFlightPerCaller,
    waitMs: config.shedCallerWaitMs,
  });
  const largeBodies = createLargeBodyTurns(largeBodyTurnOptions);
  const shedder = createLoadShedder({
    maxInFlight: config.shedMaxInFlight,
    maxEventLoopDelayMs: config.shedEventLoopDelayMs,
  });
  // One cache of verified tokens for HTTP requests and WebSocket operations alike.
  const tokens = createTokenCache(events);
  const guard = createGuard({
    config,
    db,
    clock,
    rateLimiter,
    work,
    callerPlaces,
    shedder,
    tokens,
    largeBodies,
  });
  const websockets = createGraphQLWebSockets({ config, db, clock, rateLimiter, work, tokens, graphql, shedder });
  const metrics = createMetrics(db, {
    cacheBytes: () => ({ ...graphql.cacheBytes(), ...work.stats() }),
    repeatedQueries: graphql.repeatedQueries,
    waitingForCallerTurn: callerPlaces.waiting,
    largeBodiesWaiting: largeBodies.waiting,
    webSockets: websockets.stats,
  });
  const probes = createProbes({ db, events, logger, metrics, instance: instanceRole(config) });
  const cors = createCors(config.corsOrigins);

  const handle = composeMiddleware(
    [
      observeRequests(metrics, logger),
      compressAnswers(createCompression()),
      answerHeaders(cors, graphql.graphiqlContentSecurityPolicy),
      errorBoundary(logUnexpected),
      answerHeadRequests,
    ],
    routeInOrder([
      probes.route,
      rootRoute(config),
      graphiqlAssetRoute(graphql),
      preflightRoute(cors),
      graphqlRoute(graphql, guard),
      openApiRoute(config),
      restApiRoute(rest, graphql, guard),
      plainRoute(plainRoutes, guard, createContext),
    ]),
  );

  return {
    fetch: (request, server) => handle(newExchange(request, server, config.trustProxyHops)),
    stopAcceptingTraffic: probes.stopAcceptingTraffic,
    serveWebSockets: websockets.attach,
    closeWebSockets: websockets.close,
    close: () => work.close(),
    observeJob: metrics.observeJob,
  };
}
