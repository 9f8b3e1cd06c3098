import { randomUUID } from "node:crypto";
import { useGraphQlJit } from "@envelop/graphql-jit";
import { createYoga, type Plugin } from "graphql-yoga";
import { authenticate, bearerToken } from "./auth/viewer.ts";
import { type Clock, systemClock } from "./clock.ts";
import type { Config } from "./config.ts";
import type { RequestContext } from "./context.ts";
import type { Database } from "./db/database.ts";
import { maskError } from "./graphql/errors.ts";
import { schema } from "./graphql/schema.ts";
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

export interface App {
  fetch(request: Request): Promise<Response>;
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

  async function createContext(request: Request, requestId: string): Promise<RequestContext> {
    const bearer = bearerToken(request.headers.get("authorization"));
    return {
      prisma: db.prisma,
      config,
      clock,
      requestId,
      viewer: await authenticate(db.prisma, clock, bearer),
      bearer,
      loaders: new Map(),
    };
  }

  const yoga = createYoga<{ requestId: string }>({
    schema,
    graphqlEndpoint: "/graphql",
    landingPage: false,
    logging: false,
    graphiql: { defaultQuery: defaultGraphiQLQuery, title: "Docs management GraphQL" },
    context: ({ request, requestId }) => createContext(request, requestId),
    plugins: [
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
      } satisfies Plugin<RequestContext, { requestId: string }>,
    ],
    // The safety net for errors outside execution (they carry no request id).
    maskedErrors: { maskError: (error) => maskError(error, "", logUnexpected("")) },
  });

  const rest = createRestHandler({
    routes: compileRoutes(schema, restRoutes),
    onUnexpectedError: (error, ctx) => logUnexpected(ctx.requestId)(error),
  });

  async function route(request: Request, url: URL, requestId: string): Promise<Response> {
    if (url.pathname === "/healthz") return Response.json({ status: "ok" });
    if (url.pathname === "/graphql") return yoga.fetch(request, { requestId });
    if (url.pathname === "/v1" || url.pathname.startsWith("/v1/")) {
      const ctx = await createContext(request, requestId);
      return rest(request, url.pathname.slice(3) || "/", url.searchParams, ctx);
    }
    const plain = findPlainRoute(plainRoutes, request, url.pathname);
    if (plain) return runPlainRoute(plain.route, request, plain.parameters, await createContext(request, requestId));
    return restError(404, `No route for ${url.pathname}`);
  }

  return {
    async fetch(request) {
      const started = performance.now();
      const requestId = request.headers.get("x-request-id")?.slice(0, 64) || randomUUID();
      const url = new URL(request.url);
      let response: Response;
      try {
        response = await route(request, url, requestId);
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
