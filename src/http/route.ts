import type { Response } from "@whatwg-node/fetch";
import type { Exchange } from "../web/call.ts";
import { restError } from "../web/errors.ts";
import type { Handler } from "./pipeline.ts";

/** One route of the service: its answer, or undefined when the request is not its own. */
export type Route = (exchange: Exchange) => Promise<Response> | undefined;

/** The public API, where CORS and `no-store` apply. */
export const isApi = (pathname: string) => pathname === "/graphql" || pathname === "/v1" || pathname.startsWith("/v1/");

/** The first route that takes the request answers it; 404 when none does. */
export function routeInOrder(routes: readonly Route[]): Handler {
  return (exchange) => {
    for (const route of routes) {
      const answer = route(exchange);
      if (answer) return answer;
    }
    return Promise.resolve(restError("NOT_FOUND", `No route for ${exchange.url.pathname}`));
  };
}
