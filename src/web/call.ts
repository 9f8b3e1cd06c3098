import type { IncomingMessage } from "node:http";
import { Request as PonyfillRequest } from "@whatwg-node/fetch";
import type { Database } from "../db/database.ts";
import type { EventBus } from "../events/bus.ts";
import type { Clock } from "../platform/clock.ts";
import type { Config } from "../platform/config.ts";
import type { RequestLabels } from "../platform/metrics.ts";
import type { RateLimitDecision, RequestContext, Viewer } from "../request/context.ts";
import type { RequestBudget } from "../request/request-budget.ts";
import type { HeavyWork } from "../workers/heavy-work.ts";

/** What the Node server adapter passes along with each request (absent when tests call `fetch` directly). */
export interface ServerContext {
  req?: { socket: { remoteAddress?: string } };
}

/** One request as the HTTP pipeline sees it, from its arrival to its answer. */
export interface Exchange {
  request: Request;
  url: URL;
  requestId: string;
  /** The peer's address: anonymous callers are counted by it (rate limit, open subscriptions). */
  clientAddress: string;
  /** Node's own request, when the node adapter serves it: its body is read from node's stream. */
  nodeRequest: IncomingMessage | undefined;
  /** How the request is labelled in the metrics; routes fill them in. */
  labels: RequestLabels;
  /** Why load shedding refused the request, when it did: such requests are counted, not logged one by one. */
  shed?: string;
}

/** Logs an unexpected error with the id of the request it happened in. */
export type LogUnexpected = (requestId: string) => (error: unknown) => void;

/** The call in the GraphQL pipeline's context: plugins read who is calling and the request's labels there. */
export interface GraphQLCall {
  call: CallContext;
}

/**
 * An admitted API request, carrying its call: the GraphQL pipeline finds the call on the request rather than in a
 * server context of its own. yoga's server adapter makes the object it is handed the prototype of the request's
 * context; a new one per request made V8 build hidden classes for each in the old generation (docs/performance.md).
 * The fetch ponyfill's Request, as yoga and the node adapter use: undici's costs a stream and an AbortSignal.
 */
export class CallRequest extends PonyfillRequest {
  readonly call: CallContext;

  constructor(url: string, init: RequestInit, call: CallContext) {
    super(url, init);
    this.call = call;
  }
}

/** The call a request was admitted with (every request the pipeline runs passed the guard). */
export function callOf(request: Request): CallContext {
  if (request instanceof CallRequest) return request.call;
  throw new Error("A request reached the GraphQL pipeline without its call");
}

/** Who is calling and how the request is labelled in the metrics, settled before a handler runs. */
export interface CallContext {
  requestId: string;
  clientAddress: string;
  viewer: Viewer | null;
  bearer: string | undefined;
  labels: RequestLabels;
  budget: RequestBudget;
  rateLimit?: RateLimitDecision;
}

export interface RequestContextDependencies {
  config: Config;
  db: Database;
  events: EventBus;
  clock: Clock;
  work: HeavyWork;
}

/** The resolvers' context of an admitted call: fresh state (loaders), the call's budget and caller, and the call itself. */
export function requestContextFactory({ config, db, events, clock, work }: RequestContextDependencies) {
  return (call: CallContext): RequestContext & GraphQLCall => ({
    prisma: db.prisma,
    sql: db.sql,
    config,
    clock,
    requestId: call.requestId,
    viewer: call.viewer,
    bearer: call.bearer,
    state: new Map(),
    events,
    budget: call.budget,
    work,
    rateLimit: call.rateLimit,
    call,
  });
}
