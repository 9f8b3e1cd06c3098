import { isApi } from "../app/routes.ts";
import { setSecurityHeaders } from "../web/response-headers.ts";
import type { Cors } from "./cors.ts";
import type { Middleware } from "./pipeline.ts";

/**
 * The headers of every answer: the request id, the security headers (GraphiQL's page with the policy its scripts
 * need), and on the API CORS and `no-store`.
 */
export function answerHeaders(cors: Cors, graphiqlContentSecurityPolicy: () => string): Middleware {
  return async (exchange, next) => {
    const response = await next(exchange);
    const { request, url, requestId } = exchange;
    response.headers.set("x-request-id", requestId);
    const graphiqlHtml =
      url.pathname === "/graphql" && response.headers.get("content-type")?.startsWith("text/html") === true;
    setSecurityHeaders(response.headers, graphiqlHtml ? graphiqlContentSecurityPolicy() : undefined);
    if (isApi(url.pathname)) {
      cors.decorate(request, response);
      // API answers may carry secrets (new tokens, share-link keys and URLs with them): no cache keeps any.
      // The OpenAPI document and the GraphiQL page are the same for everyone.
      if (!graphiqlHtml && url.pathname !== "/v1/openapi.json") response.headers.set("cache-control", "no-store");
    }
    return response;
  };
}
