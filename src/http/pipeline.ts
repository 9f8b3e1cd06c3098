import type { Exchange } from "../web/call.ts";

/** Answers an exchange: a route, or the rest of the chain seen from a middleware. */
export type Handler = (exchange: Exchange) => Promise<Response>;

/**
 * One step of the HTTP pipeline: it may answer by itself, or call `next` and work on the answer (headers, metrics,
 * errors). Each concern is its own middleware, so adding one (compression, HEAD) is one entry in the list.
 */
export type Middleware = (exchange: Exchange, next: Handler) => Promise<Response>;

/** The middleware in order, outermost first, around the handler. */
export function composeMiddleware(middleware: readonly Middleware[], handler: Handler): Handler {
  return middleware.reduceRight<Handler>((next, step) => (exchange) => step(exchange, next), handler);
}
