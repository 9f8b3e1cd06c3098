import { Request as PonyfillRequest, Response } from "@whatwg-node/fetch";
import type { Middleware } from "./pipeline.ts";

/**
 * HEAD wherever GET is: `handle` answers the HEAD request as a GET, and the client gets that status and those headers
 * without the body.
 */
async function answerHead(request: Request, handle: (request: Request) => Promise<Response>): Promise<Response> {
  const response = await handle(new PonyfillRequest(request.url, { method: "GET", headers: request.headers }));
  await response.body?.cancel();
  return new Response(null, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** `answerHead` as a step of the HTTP pipeline: the routes behind it see a GET. */
export const answerHeadRequests: Middleware = (exchange, next) =>
  exchange.request.method === "HEAD"
    ? answerHead(exchange.request, (request) => next({ ...exchange, request }))
    : next(exchange);
