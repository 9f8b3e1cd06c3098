import { randomUUID } from "node:crypto";
import { IncomingMessage } from "node:http";
import { type JITCache, useGraphQlJit } from "@envelop/graphql-jit";
import { useDeferStream } from "@graphql-yoga/plugin-defer-stream";
import { Request as PonyfillRequest, Response } from "@whatwg-node/fetch";
import { type DocumentNode, getOperationAST, Kind } from "graphql";
import { createYoga, handleStreamOrSingleExecutionResult, isAsyncIterable, type Plugin } from "graphql-yoga";
import { createTokenCache } from "./auth/token-cache.ts";
import { authenticate, bearerToken } from "./auth/viewer.ts";
import { type Clock, systemClock } from "./clock.ts";
import type { Config } from "./config.ts";
import type { RateLimitDecision, RequestContext, Viewer } from "./context.ts";
import type { Database } from "./db/database.ts";
import type { EventBus } from "./events/bus.ts";
import { usesIncrementalDelivery } from "./graphql/defer-stream.ts";
import { textKeyedCache } from "./graphql/document-caches.ts";
import { maskError, maskIncrementalPayload } from "./graphql/errors.ts";
import { graphqlLimitPlugins, graphqlLimits, maxBatchedOperations } from "./graphql/limits.ts";
import { operationLabel } from "./graphql/operation-label.ts";
import { createRepeatedOperations } from "./graphql/repeated-operations.ts";
import { retryAfterPlugin } from "./graphql/retry-after.ts";
import { trustedDocumentsPlugin } from "./graphql/trusted-documents.ts";
import { jsonNestingExceeds, PayloadTooLargeError, readBodyWithin, readNodeBodyWithin } from "./http/body.ts";
import { createCallerPlaces } from "./http/caller-places.ts";
import { createCompression } from "./http/compression.ts";
import { createCors } from "./http/cors.ts";
import { graphiqlAssetsPath, graphiqlPage } from "./http/graphiql-page.ts";
import { answerHead } from "./http/head.ts";
import { withIdempotency } from "./http/idempotency.ts";
import { createLoadShedder } from "./http/load-shedding.ts";
import { type RateLimiter, rateLimitHeaders } from "./http/rate-limit.ts";
import { setSecurityHeaders } from "./http/response-headers.ts";
import { createRootRoute } from "./http/root.ts";
import type { ObserveJob } from "./jobs/engine.ts";
import { domainErrorFrom } from "./lib/errors.ts";
import { describeError, type Logger } from "./logger.ts";
import "./module-wiring.ts";
import { contentPlainRoutes } from "./modules/content/content.public.ts";
import { openApiSpecPlainRoutes } from "./modules/openapi-spec/openapi-spec.public.ts";
import { samlPlainRoutes } from "./modules/saml-provider/saml-provider.public.ts";
import { createMetrics, type RequestLabels } from "./ops/metrics.ts";
import { requestTraceId, tracingPlugins } from "./ops/tracing.ts";
import { findPlainRoute, runPlainRoute } from "./plain-routes.ts";
import { RequestBudget } from "./request-budget.ts";
import { restError } from "./rest/errors.ts";
import { buildOpenApiDocument } from "./rest/openapi.ts";
import { compileRoutes, createRestHandler } from "./rest/router.ts";
import { restRoutes } from "./rest-routes.ts";
import { schema } from "./schema.ts";
import { maxInputDepth } from "./validation.ts";
import { createHeavyWork } from "./workers/heavy-work.ts";

export interface AppOptions {
  config: Config;
  db: Database;
  events: EventBus;
  logger: Logger;
  /** Counts requests per caller (memory or Redis); its creator closes it. */
  rateLimiter: RateLimiter;
  clock?: Clock;
}

/** What the Node server adapter passes along with each request (absent when tests call `fetch` directly). */
export interface ServerContext {
  req?: { socket: { remoteAddress?: string } };
}

export interface App {
  fetch(request: Request, server?: ServerContext): Promise<Response>;
  /** From now on `/readyz` answers 503, so load balancers stop sending traffic while requests in flight finish. */
  stopAcceptingTraffic(): void;
  /** Ends the worker threads (once the server has stopped). */
  close(): Promise<void>;
  /** Counts a job run in `/metrics` (the job engine of this process reports each). */
  observeJob: ObserveJob;
}

/** Who is calling and how the request is labelled in the metrics, settled before a handler runs. */
interface CallContext {
  requestId: string;
  /** The peer's address: anonymous callers are counted by it (rate limit, open subscriptions). */
  clientAddress: string;
  viewer: Viewer | null;
  bearer: string | undefined;
  labels: RequestLabels;
  budget: RequestBudget;
  rateLimit?: RateLimitDecision;
}

/** What graphql-jit's plugin keeps per document text. */
type JitCacheEntry = Parameters<JITCache["set"]>[1];

/** Retry-After of a request shed for load: the overload is measured every 100 ms, so a second is plenty. */
const shedRetrySeconds = 1;

/** Levels a body adds around a variable's value: a batch, its operation, `variables`, the variable. */
const jsonEnvelopeDepth = 4;

/** A URL's path and query: what an idempotency key is bound to, with the method and the body. */
function pathAndQuery(url: string): string {
  const { pathname, search } = new URL(url);
  return pathname + search;
}

/** The public API, where CORS and `no-store` apply. */
const isApi = (pathname: string) => pathname === "/graphql" || pathname === "/v1" || pathname.startsWith("/v1/");

const plainRoutes = [...contentPlainRoutes, ...openApiSpecPlainRoutes, ...samlPlainRoutes];

/** GraphiQL's first query: the nested site structure, the read this gateway is built for. */
export const defaultGraphiQLQuery = `# Put your token in "Headers" below: {"Authorization": "Bearer <token>"}, then press the run button.
query SiteStructure {
  organizations(first: 10) {
    nodes {
      id
      title
      sites(first: 10) {
        nodes {
          title
          sections(first: 20) {
            nodes {
              title
              siteSpaces { path title space { title } }
            }
          }
          siteSpaces(first: 20) { totalCount nodes { path space { title } } }
        }
      }
    }
  }
}
`;

/** One fetch handler for the whole service: `/graphql`, `/v1/*`, health and metrics. */
export function createApp({ config, db, events, logger, rateLimiter, clock = systemClock }: AppOptions): App {
  const logUnexpected = (requestId: string) => (error: unknown) =>
    logger.error("unexpected error", { requestId, ...describeError(error) });

  function createContext({ requestId, viewer, bearer, budget, rateLimit }: CallContext): RequestContext {
    return {
      prisma: db.prisma,
      sql: db.sql,
      config,
      clock,
      requestId,
      viewer,
      bearer,
      loaders: new Map(),
      events,
      budget,
      work,
      rateLimit,
    };
  }

  const work = createHeavyWork(config, (error) =>
    logger.error("worker thread error outside a job", describeError(error)),
  );
  const documentCacheOptions = {
    maxBytes: config.graphqlCacheBytes,
    maxTextBytes: config.graphqlCacheMaxDocumentBytes,
  };
  const parsedDocuments = textKeyedCache<DocumentNode>(documentCacheOptions);
  const parseErrors = textKeyedCache<object>(documentCacheOptions);
  const compiledOperations = textKeyedCache<JitCacheEntry>(documentCacheOptions);
  const repeatedOperations = createRepeatedOperations(schema, documentCacheOptions);
  const callerPlaces = createCallerPlaces(config.shedMaxInFlightPerCaller);
  const shedder = createLoadShedder({
    maxInFlight: config.shedMaxInFlight,
    maxEventLoopDelayMs: config.shedEventLoopDelayMs,
  });
  const metrics = createMetrics(db, {
    repeatedOperations: repeatedOperations.answered,
    cacheBytes: () => ({
      graphql_documents: parsedDocuments.bytes(),
      graphql_parse_errors: parseErrors.bytes(),
      graphql_compiled: compiledOperations.bytes(),
      graphql_repeats: repeatedOperations.bytes(),
      ...work.stats(),
    }),
  });
  const newBudget = (rateLimit?: RateLimitDecision) =>
    new RequestBudget(graphqlLimits.cost, config.maxConversionBytes, work, rateLimit);
  const tokens = createTokenCache(events);
  let acceptingTraffic = true;
  const cors = createCors(config.corsOrigins);
  const graphiql = graphiqlPage(() => import("@graphql-yoga/render-graphiql/graphiql"));
  const compression = createCompression();
  const root = createRootRoute(config.publicUrl);

  const yoga = createYoga<CallContext>({
    schema,
    graphqlEndpoint: "/graphql",
    landingPage: false,
    logging: false,
    graphiql: {
      defaultQuery: defaultGraphiQLQuery,
      headers: JSON.stringify({ Authorization: "Bearer <token>" }, null, 2),
      defaultEditorToolsVisibility: "headers",
      title: "Docs management GraphQL",
    },
    // The GraphiQL page carries its scripts (no CDN): it works offline and behind strict networks.
    renderGraphiQL: graphiql.render,
    // CORS is ours (src/http/cors.ts), the same for /graphql and /v1: yoga's default would allow every origin.
    cors: false,
    context: (call) => createContext(call),
    // Bounded by the bytes of the texts they hold (src/graphql/document-caches.ts), not by their entries.
    parserAndValidationCache: { documentCache: parsedDocuments, errorCache: parseErrors },
    batching: { limit: maxBatchedOperations },
    // The guard has read the whole body within MAX_BODY_BYTES already; yoga's own limit would stream it through a
    // TransformStream again (an AbortSignal and a DOMException per request, ~7% of a small request's CPU).
    maxRequestBodySize: false,
    // GraphQL over HTTP's persisted documents: `{ documentId, variables }` (src/graphql/trusted-documents.ts).
    extraParamNames: ["documentId"],
    plugins: [
      // Before the trusted documents: it sees the parameters as sent, a registered document's id among them.
      repeatedOperations.plugin,
      trustedDocumentsPlugin(config.trustedDocumentsOnly),
      useDeferStream(),
      ...graphqlLimitPlugins(config),
      // Compiles each operation once into a JavaScript function: the nested reads resolve thousands of fields.
      // Subscriptions run on graphql-js: graphql-jit's subscribe misreads arguments that are literals or variables
      // of other names (they reached the resolver as undefined). graphql-jit knows no @defer/@stream either: those
      // operations run on yoga's executor, which delivers them incrementally. The plugin keeps one compiled
      // operation per document, whichever operation name came first: a document of several operations runs on
      // graphql-js, which runs the one each request names.
      useGraphQlJit(
        {},
        {
          enableIf: (args) =>
            getOperationAST(args.document, args.operationName)?.operation !== "subscription" &&
            !usesIncrementalDelivery(args.document) &&
            args.document.definitions.filter((definition) => definition.kind === Kind.OPERATION_DEFINITION).length ===
              1,
          cache: compiledOperations,
        },
      ),
      {
        // The operation name labels the request's metrics (the route alone would lump every GraphQL call together).
        onExecute({ args }) {
          args.contextValue.labels.operation = operationLabel(getOperationAST(args.document, args.operationName));
        },
      } satisfies Plugin<RequestContext & CallContext, CallContext>,
      {
        // Errors of an execution are masked here, where the request id is known, and logged with it.
        onExecutionResult({ result, setResult, context }) {
          if (!result || !("errors" in result) || !result.errors?.length) return;
          const { requestId } = context;
          const log = logUnexpected(requestId);
          setResult({ ...result, errors: result.errors.map((error) => maskError(error, requestId, log)) });
        },
      } satisfies Plugin<RequestContext, CallContext>,
      {
        // The parts of a @defer/@stream response arrive after onExecutionResult saw the stream: masked as they go.
        onExecute: ({ args }) => ({
          onExecuteDone: (payload) => {
            if (!isAsyncIterable(payload.result)) return;
            const log = logUnexpected(args.contextValue.requestId);
            return handleStreamOrSingleExecutionResult(payload, ({ result, setResult }) =>
              setResult(maskIncrementalPayload(result, args.contextValue.requestId, log)),
            );
          },
        }),
      } satisfies Plugin<RequestContext>,
      retryAfterPlugin(),
      ...tracingPlugins(),
    ],
    // The safety net for errors outside execution (they carry no request id).
    maskedErrors: { maskError: (error) => maskError(error, "", logUnexpected("")) },
  });

  const rest = createRestHandler({
    routes: compileRoutes(schema, restRoutes),
    onUnexpectedError: (error, ctx) => logUnexpected(ctx.requestId)(error),
  });

  /** Size limit, caller, rate limit and idempotency, shared by `/graphql` and `/v1`. */
  async function guarded(
    incoming: Request,
    nodeRequest: IncomingMessage | undefined,
    clientAddress: string,
    requestId: string,
    labels: RequestLabels,
    handle: (request: Request, call: CallContext, body: Uint8Array | undefined) => Promise<Response>,
  ): Promise<Response> {
    let body: Uint8Array<ArrayBuffer> | undefined;
    try {
      // Read from node's own stream when there is one: the fetch Request's body is a web stream over it, whose
      // reader and async iterator outlived the request often enough to fill the old generation under load.
      body = nodeRequest
        ? await readNodeBodyWithin(nodeRequest, config.maxBodyBytes)
        : await readBodyWithin(incoming, config.maxBodyBytes);
    } catch (error) {
      if (error instanceof PayloadTooLargeError) {
        return restError(413, `Request body is larger than ${config.maxBodyBytes} bytes`);
      }
      throw error;
    }
    // The fetch ponyfill's Request (the one yoga and the node adapter use): undici's costs a stream and an
    // AbortSignal per request, a measurable share of a small request's time.
    const request = new PonyfillRequest(incoming.url, { method: incoming.method, headers: incoming.headers, body });
    const bearer = bearerToken(request.headers.get("authorization"));
    // Arrays and objects nested thousands deep would overflow whatever walks them: refused before anything parses.
    if (body && jsonNestingExceeds(body, maxInputDepth + jsonEnvelopeDepth)) {
      return restError(400, `Request body must not be nested deeper than ${maxInputDepth} levels`);
    }
    const viewer = await authenticate(db.sql, clock, tokens, bearer);
    const limited = await rateLimiter.count(viewer, clientAddress, clock.now());
    const budget = newBudget(limited);
    const call: CallContext = { requestId, clientAddress, bearer, viewer, labels, budget, rateLimit: limited };
    const headers = limited ? rateLimitHeaders(limited) : {};
    if (limited && !limited.allowed) {
      return restError(429, `Rate limit of ${limited.limit} points exceeded; retry after the reset`, headers);
    }
    const caller = call.viewer ? `user:${call.viewer.userId}` : `address:${clientAddress}`;
    const place = callerPlaces.take(caller);
    if (!place) {
      return restError(
        429,
        `More than ${config.shedMaxInFlightPerCaller} of your requests are in flight; retry once they are answered`,
        { ...headers, "Retry-After": String(shedRetrySeconds) },
      );
    }
    try {
      return await answerAdmitted(request, call, body, caller, headers, handle);
    } finally {
      place.release();
    }
  }

  /** An admitted request: idempotency, then its handler, then the rate-limit headers. */
  async function answerAdmitted(
    request: Request,
    call: CallContext,
    body: Uint8Array<ArrayBuffer> | undefined,
    caller: string,
    headers: Record<string, string>,
    handle: (request: Request, call: CallContext, body: Uint8Array | undefined) => Promise<Response>,
  ): Promise<Response> {
    const key = request.headers.get("idempotency-key");
    const response =
      key !== null && request.method === "POST"
        ? await withIdempotency(
            {
              prisma: db.prisma,
              secretsKey: config.secretsKey,
              clock,
              callerKey: caller,
              key,
              method: request.method,
              target: pathAndQuery(request.url),
              body: body ? Buffer.from(body).toString("utf8") : "",
            },
            () => handle(request, call, body),
          )
        : await handle(request, call, body);
    // In points once the request's operations are charged.
    const charged = call.rateLimit ? rateLimitHeaders(call.rateLimit) : headers;
    for (const [name, value] of Object.entries(charged)) response.headers.set(name, value);
    return response;
  }

  // Built on its first request: a cost every start paid, for a document few processes serve.
  let openApiDocument: string | undefined;

  async function readiness(): Promise<Response> {
    if (!acceptingTraffic) return Response.json({ status: "stopping" }, { status: 503 });
    // Without its LISTEN this instance would serve subscriptions that never hear an event.
    if (!events.healthy()) return Response.json({ status: "event connection unavailable" }, { status: 503 });
    try {
      await db.withRawConnection((connection) => connection.query("SELECT 1"));
      return Response.json({ status: "ready" });
    } catch (error) {
      logger.warn("readiness check failed", describeError(error));
      return Response.json({ status: "database unavailable" }, { status: 503 });
    }
  }

  async function route(
    request: Request,
    nodeRequest: IncomingMessage | undefined,
    url: URL,
    clientAddress: string,
    requestId: string,
    labels: RequestLabels,
  ): Promise<Response> {
    // Liveness: the process answers. Readiness: it can serve (database reachable, not shutting down).
    if (url.pathname === "/healthz" || url.pathname === "/livez") return Response.json({ status: "ok" });
    if (url.pathname === "/readyz") return readiness();
    if (url.pathname === "/") return root(request);
    const graphiqlFile =
      request.method === "GET" && url.pathname.startsWith(graphiqlAssetsPath) && (await graphiql.asset(url.pathname));
    if (graphiqlFile) return graphiqlFile;
    if (request.method === "OPTIONS" && isApi(url.pathname)) return cors.preflight(request);
    if (url.pathname === "/metrics") {
      return new Response(await metrics.render(), { headers: { "content-type": metrics.contentType } });
    }
    if (url.pathname === "/graphql") {
      labels.route = "/graphql";
      return guarded(request, nodeRequest, clientAddress, requestId, labels, async (guardedRequest, call, body) => {
        const repeat = await repeatedOperations.answer(guardedRequest, body, () => ({
          context: createContext(call),
          labels: call.labels,
          mask: (error) => maskError(error, requestId, logUnexpected(requestId)),
        }));
        if (repeat) return repeat;
        // A repeat refused before it ran has charged its cost: yoga runs the request on a budget of its own.
        const response = await yoga.fetch(guardedRequest, { ...call, budget: newBudget(call.rateLimit) });
        // yoga's 406 has no body: a client that accepts only JSON asked for an answer in parts.
        if (response.status !== 406) return response;
        return restError(
          406,
          "The Accept header allows no type this answer can take: application/json, or multipart/mixed or " +
            "text/event-stream for operations with @defer or @stream",
        );
      });
    }
    if (url.pathname === "/v1/openapi.json" && request.method === "GET") {
      labels.route = url.pathname;
      labels.operation = "getOpenAPIDocument";
      openApiDocument ??= JSON.stringify(buildOpenApiDocument(schema, restRoutes, config.publicUrl));
      return new Response(openApiDocument, { headers: { "content-type": "application/json" } });
    }
    if (url.pathname === "/v1" || url.pathname.startsWith("/v1/")) {
      return guarded(request, nodeRequest, clientAddress, requestId, labels, (guardedRequest, call) =>
        rest(guardedRequest, url.pathname.slice(3) || "/", url.searchParams, createContext(call), (matched) => {
          labels.route = `/v1${matched.path}`;
          labels.operation = matched.operation;
        }),
      );
    }
    const plain = findPlainRoute(plainRoutes, request, url.pathname);
    if (plain) {
      labels.route = plain.route.pattern.source;
      return guarded(request, nodeRequest, clientAddress, requestId, labels, (guardedRequest, call) =>
        runPlainRoute(plain.route, guardedRequest, plain.parameters, createContext(call)),
      );
    }
    return restError(404, `No route for ${url.pathname}`);
  }

  // Shed requests are counted, not logged one by one: a line each would cost the overloaded process most.
  let shedLoggedAt = Number.NEGATIVE_INFINITY;
  let shedSinceLog = 0;
  function noteShed(reason: string) {
    shedSinceLog++;
    const now = performance.now();
    if (now - shedLoggedAt < 1000) return;
    logger.warn("overloaded: requests refused with 503", { refused: shedSinceLog, reason });
    shedLoggedAt = now;
    shedSinceLog = 0;
  }

  return {
    async fetch(request, server) {
      const started = performance.now();
      const requestId = request.headers.get("x-request-id")?.slice(0, 64) || randomUUID();
      const url = new URL(request.url);
      const clientAddress = server?.req?.socket.remoteAddress ?? "local";
      // Unmatched paths share one label: raw paths would give every id its own time series.
      const fixedPaths = ["/healthz", "/livez", "/readyz", "/metrics"];
      const labels: RequestLabels = {
        route: fixedPaths.includes(url.pathname) ? url.pathname : "unmatched",
        operation: "",
      };
      let response: Response;
      // Health and metrics are never shed: an overloaded process is alive, and says so.
      const admitted = fixedPaths.includes(url.pathname) ? undefined : shedder.admit();
      const refused = admitted && "refused" in admitted ? admitted.refused : undefined;
      try {
        const nodeRequest = server?.req instanceof IncomingMessage ? server.req : undefined;
        response = refused
          ? restError(503, "The server is overloaded; retry shortly", { "Retry-After": String(shedRetrySeconds) })
          : await answerHead(request, (asked) => route(asked, nodeRequest, url, clientAddress, requestId, labels));
      } catch (error) {
        const domain = domainErrorFrom(error);
        if (domain?.status === 503) response = restError(503, domain.message);
        else {
          logUnexpected(requestId)(error);
          response = restError(500, "Unexpected error.");
        }
      }
      response.headers.set("x-request-id", requestId);
      const graphiqlHtml =
        url.pathname === "/graphql" && response.headers.get("content-type")?.startsWith("text/html") === true;
      setSecurityHeaders(response.headers, graphiqlHtml ? graphiql.contentSecurityPolicy() : undefined);
      if (isApi(url.pathname)) {
        cors.decorate(request, response);
        // API answers may carry secrets (new tokens, share-link keys and URLs with them): no cache keeps any.
        // The OpenAPI document and the GraphiQL page are the same for everyone.
        if (!graphiqlHtml && url.pathname !== "/v1/openapi.json") response.headers.set("cache-control", "no-store");
      }
      if (admitted && "done" in admitted) admitted.done();
      const seconds = (performance.now() - started) / 1000;
      metrics.observeRequest({ ...labels, method: request.method, status: response.status, seconds });
      if (refused) {
        noteShed(refused);
        return response;
      }
      (fixedPaths.includes(url.pathname) ? logger.probe : logger.request)({
        requestId,
        method: request.method,
        path: url.pathname,
        status: response.status,
        durationMs: Math.round(seconds * 10_000) / 10,
        traceId: requestTraceId(request.method, labels.route, labels.operation),
      });
      const unchanging = graphiqlHtml || url.pathname.startsWith(graphiqlAssetsPath);
      return compression.compress(request, response, unchanging ? url.pathname : undefined);
    },
    stopAcceptingTraffic() {
      acceptingTraffic = false;
    },
    close: () => work.close(),
    observeJob: metrics.observeJob,
  };
}
