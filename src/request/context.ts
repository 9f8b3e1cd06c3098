import type { PrismaClient } from "../db/generated/client.ts";
import type { SqlReader } from "../db/sql.ts";
import type { EventBus } from "../events/bus.ts";
import type { Clock } from "../platform/clock.ts";
import type { Config } from "../platform/config.ts";
import { type HeavyWork, inlineHeavyWork } from "../workers/heavy-work.ts";
import { type PointsAccount, type RequestBudget, unlimitedBudget } from "./request-budget.ts";

/**
 * The request's account in its caller's token bucket of cost points (src/http/rate-limit.ts): the request's first
 * point is taken on admission, its operations' actual costs as each has run.
 */
export interface RateLimitDecision extends PointsAccount {
  /** Whether the bucket held the point the request needs; a refused request took nothing. */
  allowed: boolean;
  /** The bucket's capacity. */
  limit: number;
  /** Points missing from a full bucket, this request's so far included. */
  used: number;
  remaining: number;
  /** Seconds until the bucket is full again. */
  resetSeconds: number;
  /** When the bucket is full again, with no further request. */
  resetAt: Date;
  /** Seconds until the bucket holds a point again (Retry-After of a refusal). */
  retryAfterSeconds: number;
}

export interface Viewer {
  userId: string;
  tokenId: string;
}

/** Everything a service needs for one request. Created per request; never shared between requests. */
export interface RequestContext {
  prisma: PrismaClient;
  /** Hand-written reads for the hot loaders; everything else goes through `prisma`. */
  sql: SqlReader;
  config: Config;
  clock: Clock;
  requestId: string;
  /** Null when the request carried no valid token. */
  viewer: Viewer | null;
  /** The raw `Authorization: Bearer` value, which may be a visitor JWT of a `visitor-auth` site rather than a token. */
  bearer: string | undefined;
  /** Per-request state by name (loaders, settled rows, read boundaries), created on first use (`definePerRequest`). */
  state: Map<string, unknown>;
  /** Live updates: `events.publish(topic, key, payload)` reaches subscribers on every instance. */
  events: EventBus;
  /** What the HTTP request may still spend (cost, content conversion); shared by the operations of a batch. */
  budget: RequestBudget;
  /** Conversions and PDFs off the event loop, cached (src/workers/heavy-work.ts); on the calling thread outside requests. */
  work: HeavyWork;
  /** This request's count against its caller's rate limit; absent when that limit is off or outside requests. */
  rateLimit?: RateLimitDecision;
}

/** A context for work outside a request (jobs, the CLI), acting as `userId` with exactly that user's rights. */
export function contextActingAs(
  base: Pick<RequestContext, "prisma" | "sql" | "config" | "clock" | "events">,
  userId: string,
  requestId: string,
): RequestContext {
  return {
    ...base,
    requestId,
    viewer: { userId, tokenId: "" },
    bearer: undefined,
    state: new Map(),
    budget: unlimitedBudget(),
    work: inlineHeavyWork(),
  };
}
