import { Response } from "@whatwg-node/fetch";
import type { GraphQLServer } from "../graphql/server.ts";
import type { Cors } from "../http/cors.ts";
import type { Guard } from "../http/guard.ts";
import { createRootRoute } from "../http/root.ts";
import { isApi, type Route } from "../http/route.ts";
import type { Config } from "../platform/config.ts";
import type { RequestContext } from "../request/context.ts";
import { buildOpenApiDocument } from "../rest/openapi.ts";
import type { RestRoute } from "../rest/route.ts";
import type { createRestHandler } from "../rest/router.ts";
import type { CallContext } from "../web/call.ts";
import { restError } from "../web/errors.ts";
import { graphiqlAssetsPath } from "../web/graphiql-page.ts";
import { findPlainRoute, type PlainRoute, runPlainRoute } from "../web/plain-routes.ts";
import { schema } from "./schema.ts";

/** `/`: browsers to GraphiQL, API clients a list of links. */
export function rootRoute(config: Config): Route {
  const root = createRootRoute(config.publicUrl);
  return ({ request, url }) => (url.pathname === "/" ? Promise.resolve(root(request)) : undefined);
}

/** GraphiQL's files (Monaco's workers, the icon), content-hashed. */
export function graphiqlAssetRoute(graphql: GraphQLServer): Route {
  return ({ request, url }) =>
    request.method === "GET" && url.pathname.startsWith(graphiqlAssetsPath)
      ? graphql
          .graphiqlAsset(url.pathname)
          .then((file) => file ?? restError("NOT_FOUND", `No route for ${url.pathname}`))
      : undefined;
}

export function preflightRoute(cors: Cors): Route {
  return ({ request, url }) =>
    request.method === "OPTIONS" && isApi(url.pathname) ? Promise.resolve(cors.preflight(request)) : undefined;
}

export function graphqlRoute(graphql: GraphQLServer, guard: Guard): Route {
  return (exchange) => {
    if (exchange.url.pathname !== "/graphql") return undefined;
    exchange.labels.route = "/graphql";
    return guard(exchange, (request) => graphql.fetch(request));
  };
}

/** The OpenAPI document, built on its first request: a cost every start paid, for a document few processes serve. */
export function openApiRoute(config: Config, restRoutes: readonly RestRoute[]): Route {
  let document: string | undefined;
  return ({ request, url, labels }) => {
    if (url.pathname !== "/v1/openapi.json" || request.method !== "GET") return undefined;
    labels.route = url.pathname;
    labels.operation = "getOpenAPIDocument";
    document ??= JSON.stringify(buildOpenApiDocument(schema, restRoutes, config.publicUrl));
    return Promise.resolve(new Response(document, { headers: { "content-type": "application/json" } }));
  };
}

/** `/v1/*`: each route's document runs through the GraphQL pipeline, as the caller. */
export function restApiRoute(rest: ReturnType<typeof createRestHandler>, graphql: GraphQLServer, guard: Guard): Route {
  return (exchange) => {
    const { url, labels } = exchange;
    if (url.pathname !== "/v1" && !url.pathname.startsWith("/v1/")) return undefined;
    return guard(exchange, (request) =>
      rest(
        request,
        url.pathname.slice(3) || "/",
        url.searchParams,
        (document, variables) => graphql.execute(request, document, variables),
        (matched) => {
          labels.route = `/v1${matched.path}`;
          labels.operation = matched.operation;
        },
      ),
    );
  };
}

export function plainRoute(
  routes: readonly PlainRoute[],
  guard: Guard,
  createContext: (call: CallContext) => RequestContext,
): Route {
  return (exchange) => {
    const plain = findPlainRoute(routes, exchange.request, exchange.url.pathname);
    if (!plain) return undefined;
    exchange.labels.route = plain.route.pattern.source;
    return guard(exchange, (request) =>
      runPlainRoute(plain.route, request, plain.parameters, createContext(request.call)),
    );
  };
}
