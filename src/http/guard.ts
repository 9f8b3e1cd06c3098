import type { IncomingMessage } from "node:http";
import { setTimeout as delay } from "node:timers/promises";
import type { TokenCache } from "../auth/token-cache.ts";
import { authenticate, bearerToken } from "../auth/viewer.ts";
import type { Database } from "../db/database.ts";
import { graphqlLimits } from "../graphql/limits.ts";
import { maxInputDepth } from "../lib/validation.ts";
import type { Clock } from "../platform/clock.ts";
import type { Config } from "../platform/config.ts";
import type { RateLimitDecision } from "../request/context.ts";
import { RequestBudget } from "../request/request-budget.ts";
import { type CallContext, CallRequest, type Exchange } from "../web/call.ts";
import { restError } from "../web/errors.ts";
import type { HeavyWork } from "../workers/heavy-work.ts";
import {
  BodyTimeoutError,
  jsonNestingExceeds,
  PayloadTooLargeError,
  readBodyWithin,
  readNodeBodyWithin,
} from "./body.ts";
import type { CallerPlaces } from "./caller-places.ts";
import { withIdempotency } from "./idempotency.ts";
import type { LargeBodyTurns } from "./large-bodies.ts";
import type { LoadShedder } from "./load-shedding.ts";
import { type RateLimiter, rateLimitHeaders } from "./rate-limit.ts";
import { refusal } from "./refusal.ts";

/** What an admitted call is answered by: the request rebuilt over its body with its call, and the raw body. */
type GuardedHandler = (request: CallRequest, body: Uint8Array | undefined) => Promise<Response>;

/**
 * Admits an API call (body, nesting, caller, rate limit, the caller's turn, the process's load, idempotency), then runs
 * its handler.
 */
export type Guard = (exchange: Exchange, handle: GuardedHandler) => Promise<Response>;

export interface GuardOptions {
  config: Config;
  db: Database;
  clock: Clock;
  rateLimiter: RateLimiter;
  work: HeavyWork;
  callerPlaces: CallerPlaces;
  shedder: LoadShedder;
  /** Verified tokens (shared with the WebSocket operations, src/http/graphql-websocket.ts). */
  tokens: TokenCache;
  largeBodies: LargeBodyTurns;
}

/** Retry-After of a caller with too many requests waiting: they are answered within a second or so. */
const inFlightRetrySeconds = 1;

/** Retry-After of a request shed for load: the overload is measured every 100 ms, so a second is plenty. */
const shedRetrySeconds = 1;

/**
 * Bodies one caller (a user, or a client address without a token) may be sending at once: a body is read before its
 * request counts anywhere else, so connections that send slowly hold only these slots of their own caller (a browser
 * sends a handful at most).
 */
const maxBodiesInProgressPerCaller = 8;

/** How long a refusal for an empty bucket holds its caller's place before it is answered. */
const refusalHoldMs = 1000;

/** Seconds a body may go without a byte arriving (Node's requestTimeout bounds the whole request, main.ts). */
const bodyIdleTimeoutMs = 10_000;

/** Bodies larger than this arrive in turn (large-bodies.ts): the smallest a megabyte-body flood could be split into and still cost its chunks' collection, far above what reads and ordinary writes send. */
const largeBodyBytes = 64 * 1024;

/** How long a large body waits for its turn: past it, 503 (a flood of them spends its own connections' time). */
const largeBodyWaitMs = 10_000;

/** The size of a large body its headers announce (the largest allowed when they announce none); undefined for a small one. */
function largeBodySize(headers: Headers, maxBodyBytes: number): number | undefined {
  const declared = headers.get("content-length");
  if (declared === null) return headers.has("transfer-encoding") ? maxBodyBytes : undefined;
  const bytes = Number(declared);
  // Over the maximum it is refused before anything is read: no turn needed.
  return bytes > largeBodyBytes && bytes <= maxBodyBytes ? bytes : undefined;
}

/** Aborts once the request's connection has closed before its body was read. */
function closedSignal(incoming: IncomingMessage): AbortSignal {
  const controller = new AbortController();
  if (incoming.destroyed) controller.abort();
  else incoming.once("close", () => controller.abort());
  return controller.signal;
}

/** Levels a body adds around a variable's value: a batch, its operation, `variables`, the variable. */
const jsonEnvelopeDepth = 4;

/** A URL's path and query: what an idempotency key is bound to, with the method and the body. */
function pathAndQuery(url: string): string {
  const { pathname, search } = new URL(url);
  return pathname + search;
}

/** The admission shared by `/graphql`, `/v1` and the plain routes, whatever runs behind it. */
export function createGuard(options: GuardOptions): Guard {
  const { config, db, clock, rateLimiter, work, callerPlaces, shedder, tokens, largeBodies } = options;
  const bodiesInProgress = new Map<string, number>();

  /** The body, or the answer to a body over MAX_BODY_BYTES, too slow, or past its caller's bodies in progress. */
  async function readBody(
    { request, nodeRequest }: Exchange,
    caller: string,
  ): Promise<{ body: Uint8Array<ArrayBuffer> | undefined } | { refused: Response }> {
    // Read from node's own stream when there is one: the fetch Request's body is a web stream over it, whose
    // reader and async iterator outlived the request often enough to fill the old generation under load.
    if (!nodeRequest) return readInTurn(caller, request.headers, () => readBodyWithin(request, config.maxBodyBytes));
    if (nodeRequest.method === "GET" || nodeRequest.method === "HEAD") return { body: undefined };
    const sending = bodiesInProgress.get(caller) ?? 0;
    if (sending >= maxBodiesInProgressPerCaller) {
      return {
        refused: restError(
          "RATE_LIMITED",
          `At most ${maxBodiesInProgressPerCaller} request bodies of one caller may be arriving at once; retry ` +
            "once they have arrived",
          { "Retry-After": String(inFlightRetrySeconds) },
        ),
      };
    }
    bodiesInProgress.set(caller, sending + 1);
    try {
      return await readInTurn(
        caller,
        request.headers,
        () => readNodeBodyWithin(nodeRequest, config.maxBodyBytes, bodyIdleTimeoutMs),
        closedSignal(nodeRequest),
      );
    } finally {
      const left = (bodiesInProgress.get(caller) ?? 1) - 1;
      if (left > 0) bodiesInProgress.set(caller, left);
      else bodiesInProgress.delete(caller);
    }
  }

  /** Reads a large body in its turn (large-bodies.ts), a small one at once. */
  async function readInTurn(
    caller: string,
    headers: Headers,
    read: () => Promise<Uint8Array<ArrayBuffer> | undefined>,
    closed?: AbortSignal,
  ): Promise<{ body: Uint8Array<ArrayBuffer> | undefined } | { refused: Response }> {
    const bytes = largeBodySize(headers, config.maxBodyBytes);
    if (bytes === undefined) return readWithin(read);
    const turn = await largeBodies.take(caller, bytes, closed);
    if (!turn) {
      // Its body was not read: the connection closes rather than receive it.
      const seconds = largeBodyWaitMs / 1000;
      return {
        refused: restError(
          "SERVICE_UNAVAILABLE",
          `Other large request bodies arrived first for ${seconds} s; retry shortly`,
          {
            "Retry-After": String(shedRetrySeconds),
            Connection: "close",
          },
        ),
      };
    }
    try {
      return await readWithin(read);
    } finally {
      turn.release();
    }
  }

  /**
   * A request its caller's bucket cannot pay for, answered once it has held one of its caller's places for up to a
   * second: a client that ignores Retry-After is refused a few times a second, not thousands (each refusal answered
   * at once brought the next at once, and the process spent its time refusing), and its requests wait their turn
   * like any other, within the caller's bounds.
   */
  async function refusedForPoints(
    exchange: Exchange,
    caller: string,
    limited: RateLimitDecision,
    headers: Record<string, string>,
  ): Promise<Response> {
    const place = callerPlaces.take(caller) ?? (await callerPlaces.wait(caller, 0));
    if (place) {
      await delay(Math.min(limited.retryAfterSeconds * 1000, refusalHoldMs));
      place.release();
    }
    return refusal(
      exchange,
      "RATE_LIMITED",
      `Rate limit of ${limited.limit} points reached: the bucket refills ${limited.limit} points every ` +
        `${config.rateLimitWindowSeconds} s; retry in ${limited.retryAfterSeconds} s`,
      headers,
    );
  }

  async function readWithin(
    read: () => Promise<Uint8Array<ArrayBuffer> | undefined>,
  ): Promise<{ body: Uint8Array<ArrayBuffer> | undefined } | { refused: Response }> {
    try {
      return { body: await read() };
    } catch (error) {
      if (error instanceof PayloadTooLargeError) {
        return { refused: restError("PAYLOAD_TOO_LARGE", `Request body is larger than ${config.maxBodyBytes} bytes`) };
      }
      if (error instanceof BodyTimeoutError) {
        const seconds = bodyIdleTimeoutMs / 1000;
        return {
          refused: restError("REQUEST_TIMEOUT", `No byte of the request body arrived for ${seconds} s`, {
            Connection: "close",
          }),
        };
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
    const { request: incoming, requestId, clientAddress, labels } = exchange;
    // The caller is known from the headers alone, before the body: slow bodies are counted against their caller.
    const bearer = bearerToken(incoming.headers.get("authorization"));
    const viewer = await authenticate(db.sql, clock, tokens, bearer);
    const caller = viewer ? `user:${viewer.userId}` : `address:${clientAddress}`;
    // The bucket is asked first: a request it cannot pay for is refused without its body being read.
    const limited = await rateLimiter.admit(viewer, clientAddress, clock.now());
    const headers = limited ? rateLimitHeaders(limited) : {};
    if (limited && !limited.allowed) return refusedForPoints(exchange, caller, limited, headers);
    const read = await readBody(exchange, caller);
    if ("refused" in read) return read.refused;
    const { body } = read;
    // Arrays and objects nested thousands deep would overflow whatever walks them: refused before anything parses.
    if (body && jsonNestingExceeds(body, maxInputDepth + jsonEnvelopeDepth)) {
      return restError("BAD_USER_INPUT", `Request body must not be nested deeper than ${maxInputDepth} levels`);
    }
    const budget = new RequestBudget(graphqlLimits.cost, config.maxConversionBytes, work, limited);
    const call: CallContext = { requestId, clientAddress, bearer, viewer, labels, budget, rateLimit: limited };
    const place = callerPlaces.take(caller) ?? (await callerPlaces.wait(caller, body?.byteLength ?? 0));
    if (!place) {
      return refusal(
        exchange,
        "RATE_LIMITED",
        `Your requests run ${config.shedMaxInFlightPerCaller} at a time and too many are waiting their turn; retry ` +
          "once they are answered",
        { ...headers, "Retry-After": String(inFlightRetrySeconds) },
      );
    }
    const admitted = shedder.admit(caller, viewer === null);
    if ("refused" in admitted) {
      place.release();
      exchange.shed = admitted.refused;
      return refusal(exchange, "SERVICE_UNAVAILABLE", "The server is overloaded; retry shortly", {
        ...headers,
        "Retry-After": String(shedRetrySeconds),
      });
    }
    const request = new CallRequest(incoming.url, { method: incoming.method, headers: incoming.headers, body }, call);
    try {
      return await answerAdmitted(request, body, caller, headers, handle);
    } finally {
      admitted.done();
      place.release();
    }
  };
}
