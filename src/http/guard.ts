import { createTokenCache } from "../auth/token-cache.ts";
import { authenticate, bearerToken } from "../auth/viewer.ts";
import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import type { Database } from "../db/database.ts";
import type { EventBus } from "../events/bus.ts";
import { graphqlLimits } from "../graphql/limits.ts";
import { RequestBudget } from "../request-budget.ts";
import { restError } from "../rest/errors.ts";
import { maxInputDepth } from "../validation.ts";
import type { HeavyWork } from "../workers/heavy-work.ts";
import { jsonNestingExceeds, PayloadTooLargeError, readBodyWithin, readNodeBodyWithin } from "./body.ts";
import { type CallContext, CallRequest, type Exchange } from "./call.ts";
import type { CallerPlaces } from "./caller-places.ts";
import { withIdempotency } from "./idempotency.ts";
import { type RateLimiter, rateLimitHeaders } from "./rate-limit.ts";

/** What an admitted call is answered by: the request rebuilt over its body with its call, and the raw body. */
type GuardedHandler = (request: CallRequest, body: Uint8Array | undefined) => Promise<Response>;

/** Admits an API call (size, nesting, caller, rate limit, places in flight, idempotency), then runs its handler. */
export type Guard = (exchange: Exchange, handle: GuardedHandler) => Promise<Response>;

export interface GuardOptions {
  config: Config;
  db: Database;
  events: EventBus;
  clock: Clock;
  rateLimiter: RateLimiter;
  work: HeavyWork;
  callerPlaces: CallerPlaces;
}

/** Retry-After of a caller with too many requests waiting: they are answered within a second or so. */
const inFlightRetrySeconds = 1;

/** Levels a body adds around a variable's value: a batch, its operation, `variables`, the variable. */
const jsonEnvelopeDepth = 4;

/** A URL's path and query: what an idempotency key is bound to, with the method and the body. */
function pathAndQuery(url: string): string {
  const { pathname, search } = new URL(url);
  return pathname + search;
}

/** The admission shared by `/graphql`, `/v1` and the plain routes, whatever runs behind it. */
export function createGuard({ config, db, events, clock, rateLimiter, work, callerPlaces }: GuardOptions): Guard {
  const tokens = createTokenCache(events);
  /** A place of the caller's, waited for outside the requests in flight: a waiting request runs nothing. */
  async function waitForPlace({ admission }: Exchange, caller: string, bodyBytes: number) {
    admission?.suspend();
    try {
      return await callerPlaces.wait(caller, bodyBytes);
    } finally {
      admission?.resume();
    }
  }

  /** The body, or the answer to a body over MAX_BODY_BYTES. */
  async function readBody({
    request,
    nodeRequest,
  }: Exchange): Promise<{ body: Uint8Array<ArrayBuffer> | undefined } | { tooLarge: Response }> {
    try {
      // Read from node's own stream when there is one: the fetch Request's body is a web stream over it, whose
      // reader and async iterator outlived the request often enough to fill the old generation under load.
      return {
        body: nodeRequest
          ? await readNodeBodyWithin(nodeRequest, config.maxBodyBytes)
          : await readBodyWithin(request, config.maxBodyBytes),
      };
    } catch (error) {
      if (error instanceof PayloadTooLargeError) {
        return { tooLarge: restError(413, `Request body is larger than ${config.maxBodyBytes} bytes`) };
      }
      throw error;
    }
  }

  /** Idempotency, then the handler, then the rate-limit headers. */
  async function answerAdmitted(
    request: CallRequest,
    body: Uint8Array<ArrayBuffer> | undefined,
    caller: string,
    headers: Record<string, string>,
    handle: GuardedHandler,
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
            () => handle(request, body),
          )
        : await handle(request, body);
    // In points once the request's operations are charged.
    const { rateLimit } = request.call;
    const charged = rateLimit ? rateLimitHeaders(rateLimit) : headers;
    for (const [name, value] of Object.entries(charged)) response.headers.set(name, value);
    return response;
  }

  return async (exchange, handle) => {
    const read = await readBody(exchange);
    if ("tooLarge" in read) return read.tooLarge;
    const { body } = read;
    const { request: incoming, requestId, clientAddress, labels } = exchange;
    const bearer = bearerToken(incoming.headers.get("authorization"));
    // Arrays and objects nested thousands deep would overflow whatever walks them: refused before anything parses.
    if (body && jsonNestingExceeds(body, maxInputDepth + jsonEnvelopeDepth)) {
      return restError(400, `Request body must not be nested deeper than ${maxInputDepth} levels`);
    }
    const viewer = await authenticate(db.sql, clock, tokens, bearer);
    const limited = await rateLimiter.count(viewer, clientAddress, clock.now());
    const budget = new RequestBudget(graphqlLimits.cost, config.maxConversionBytes, work, limited);
    const call: CallContext = { requestId, clientAddress, bearer, viewer, labels, budget, rateLimit: limited };
    const headers = limited ? rateLimitHeaders(limited) : {};
    if (limited && !limited.allowed) {
      return restError(429, `Rate limit of ${limited.limit} points exceeded; retry after the reset`, headers);
    }
    const caller = viewer ? `user:${viewer.userId}` : `address:${clientAddress}`;
    const place = callerPlaces.take(caller) ?? (await waitForPlace(exchange, caller, body?.byteLength ?? 0));
    if (!place) {
      return restError(
        429,
        `Your requests run ${config.shedMaxInFlightPerCaller} at a time and too many are waiting their turn; retry ` +
          "once they are answered",
        { ...headers, "Retry-After": String(inFlightRetrySeconds) },
      );
    }
    const request = new CallRequest(incoming.url, { method: incoming.method, headers: incoming.headers, body }, call);
    try {
      return await answerAdmitted(request, body, caller, headers, handle);
    } finally {
      place.release();
    }
  };
}
