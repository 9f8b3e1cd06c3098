import { randomUUID } from "node:crypto";
import { useGraphQlJit } from "@envelop/graphql-jit";
import { createYoga, type Plugin } from "graphql-yoga";
import { authenticate, bearerToken } from "./auth/viewer.ts";
import { type Clock, systemClock } from "./clock.ts";
import type { Config } from "./config.ts";
import type { RequestContext, Viewer } from "./context.ts";
import type { Database } from "./db/database.ts";
import { maskError } from "./graphql/errors.ts";
import { graphqlLimitPlugins, maxBatchedOperations } from "./graphql/limits.ts";
import { schema } from "./graphql/schema.ts";
import { PayloadTooLargeError, readBodyWithin } from "./http/body.ts";
import { withIdempotency } from "./http/idempotency.ts";
import { rateLimit, rateLimitHeaders } from "./http/rate-limit.ts";
import { describeError, type Logger } from "./logger.ts";
import { contentPlainRoutes } from "./modules/content/content.http.ts";
import { openApiSpecPlainRoutes } from "./modules/openapi-spec/openapi-spec.http.ts";
import { samlPlainRoutes } from "./modules/saml-provider/saml-provider.http.ts";
import { findPlainRoute, runPlainRoute } from "./plain-routes.ts";
import { restError } from "./rest/errors.ts";
import { compileRoutes, createRestHandler } from "./rest/router.ts";
import { restRoutes } from "./rest/routes.ts";

export interface AppOptions {
  config: Config;
  db: Database;
  logger: Logger;
  clock?: Clock;
}

/** What the Node server adapter passes along with each request (absent when tests call `fetch` directly). */
export interface ServerContext {
  req?: { socket: { remoteAddress?: string } };
}

export interface App {
  fetch(request: Request, server?: ServerContext): Promise<Response>;
}

interface CallContext {
  requestId: string;
  viewer: Viewer | null;
  bearer: string | undefined;
}

const plainRoutes = [...contentPlainRoutes, ...openApiSpecPlainRoutes, ...samlPlainRoutes];

const defaultGraphiQLQuery = `# Send your token: open "Headers" below and set {"Authorization": "Bearer <token>"}
query Organizations {
  organizations(first: 10) {
    totalCount
    nodes {
      id
      title
      members(first: 10) { totalCount nodes { role user { displayName email } } }
      teams(first: 10) { nodes { title members(first: 10) { nodes { team { role } organization { user { displayName } } } } } }
    }
  }
}
`;

/** One fetch handler for the whole service: `/graphql`, `/v1/*` and `/healthz`. */
export function createApp({ config, db, logger, clock = systemClock }: AppOptions): App {
  const logUnexpected = (requestId: string) => (error: unknown) =>
    logger.error("unexpected error", { requestId, ...describeError(error) });

  function createContext({ requestId, viewer, bearer }: CallContext): RequestContext {
    return { prisma: db.prisma, config, clock, requestId, viewer, bearer, loaders: new Map() };
  }

  const yoga = createYoga<CallContext>({
    schema,
    graphqlEndpoint: "/graphql",
    landingPage: false,
    logging: false,
    graphiql: { defaultQuery: defaultGraphiQLQuery, title: "Docs management GraphQL" },
    context: (call) => createContext(call),
    batching: { limit: maxBatchedOperations },
    plugins: [
      ...graphqlLimitPlugins(config),
      // Compiles each operation once into a JavaScript function: the nested reads resolve thousands of fields.
      useGraphQlJit(),
      {
        // Errors of an execution are masked here, where the request id is known, and logged with it.
        onExecutionResult({ result, setResult, context }) {
          if (!result || !("errors" in result) || !result.errors?.length) return;
          const { requestId } = context;
          const log = logUnexpected(requestId);
          setResult({ ...result, errors: result.errors.map((error) => maskError(error, requestId, log)) });
        },
      } satisfies Plugin<RequestContext, CallContext>,
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
    clientAddress: string,
    requestId: string,
    handle: (request: Request, call: CallContext) => Promise<Response>,
  ): Promise<Response> {
    let body: Uint8Array<ArrayBuffer> | undefined;
    try {
      body = await readBodyWithin(incoming, config.maxBodyBytes);
    } catch (error) {
      if (error instanceof PayloadTooLargeError) {
        return restError(413, `Request body is larger than ${config.maxBodyBytes} bytes`);
      }
      throw error;
    }
    const request = new Request(incoming.url, { method: incoming.method, headers: incoming.headers, body });
    const bearer = bearerToken(request.headers.get("authorization"));
    const call: CallContext = { requestId, bearer, viewer: await authenticate(db.prisma, clock, bearer) };
    const limited = await rateLimit(db.prisma, config, call.viewer, clientAddress, clock.now());
    const headers = limited ? rateLimitHeaders(limited) : {};
    if (limited && !limited.allowed) {
      return restError(429, `Rate limit of ${limited.limit} requests exceeded; retry after the reset`, headers);
    }
    const key = request.headers.get("idempotency-key");
    const url = new URL(request.url);
    const response =
      key !== null && request.method === "POST"
        ? await withIdempotency(
            {
              prisma: db.prisma,
              clock,
              callerKey: call.viewer ? `user:${call.viewer.userId}` : `address:${clientAddress}`,
              key,
              method: request.method,
              target: url.pathname + url.search,
              body: body ? Buffer.from(body).toString("utf8") : "",
            },
            () => handle(request, call),
          )
        : await handle(request, call);
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    return response;
  }

  async function route(request: Request, url: URL, clientAddress: string, requestId: string): Promise<Response> {
    if (url.pathname === "/healthz") return Response.json({ status: "ok" });
    if (url.pathname === "/graphql") {
      return guarded(request, clientAddress, requestId, async (guardedRequest, call) =>
        yoga.fetch(guardedRequest, call),
      );
    }
    if (url.pathname === "/v1" || url.pathname.startsWith("/v1/")) {
      return guarded(request, clientAddress, requestId, (guardedRequest, call) =>
        rest(guardedRequest, url.pathname.slice(3) || "/", url.searchParams, createContext(call)),
      );
    }
    const plain = findPlainRoute(plainRoutes, request, url.pathname);
    if (plain) {
      return guarded(request, clientAddress, requestId, (guardedRequest, call) =>
        runPlainRoute(plain.route, guardedRequest, plain.parameters, createContext(call)),
      );
    }
    return restError(404, `No route for ${url.pathname}`);
  }

  return {
    async fetch(request, server) {
      const started = performance.now();
      const requestId = request.headers.get("x-request-id")?.slice(0, 64) || randomUUID();
      const url = new URL(request.url);
      const clientAddress = server?.req?.socket.remoteAddress ?? "local";
      let response: Response;
      try {
        response = await route(request, url, clientAddress, requestId);
      } catch (error) {
        logUnexpected(requestId)(error);
        response = restError(500, "Unexpected error.");
      }
      response.headers.set("x-request-id", requestId);
      logger.info("request", {
        requestId,
        method: request.method,
        path: url.pathname,
        status: response.status,
        durationMs: Math.round((performance.now() - started) * 10) / 10,
      });
      return response;
    },
  };
}
