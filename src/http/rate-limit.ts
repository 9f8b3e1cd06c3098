import type { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import type { Config } from "../config.ts";
import type { RateLimitDecision, Viewer } from "../context.ts";
import { DomainError } from "../lib/errors.ts";
import type { Logger } from "../logger.ts";

/** An operation costs more points than the caller's window has left: retry after the reset, or ask for less. */
class RateLimitedError extends DomainError {
  readonly status = 429;
  readonly code = "RATE_LIMITED";
}

export interface RateLimiter {
  /**
   * Takes the request's first point from its caller's window: per user when the request carries a valid token (all
   * of the user's tokens share it, so minting tokens buys no points), per client address otherwise. The decision
   * then takes each operation's further points as it is charged (RequestBudget.chargeCost). Undefined when that
   * limit is 0 (switched off).
   */
  count(viewer: Viewer | null, clientAddress: string, now: Date): Promise<RateLimitDecision> | undefined;
  /** Ends the Redis connection, if any. */
  close(): Promise<void>;
}

/** What rate-limiter-flexible's counters have in common (memory, or Redis insured by memory). */
type Counter = Pick<RateLimiterMemory, "consume">;

/**
 * A request's place in its caller's window. Points are GitHub's: an operation costs its estimated nodes / 100, at
 * least 1 (pointsOf), charged up front on its estimate, since the actual cost is known only once its work is done
 * (`extensions.cost.actual` reports it). The request paid its first point on admission, which its first operation
 * uses. An operation is refused when its points exceed what this request saw left; concurrent requests of one caller
 * each see the count of their own admission, so together they may overdraw the window by what they had in flight.
 */
class RateLimitWindow implements RateLimitDecision {
  private prepaid = 1;
  constructor(
    private readonly counter: Counter,
    private readonly key: string,
    readonly limit: number,
    public used: number,
    readonly resetSeconds: number,
    readonly resetAt: Date,
  ) {}

  get remaining(): number {
    return Math.max(0, this.limit - this.used);
  }

  get allowed(): boolean {
    return this.used <= this.limit;
  }

  spend(points: number): void {
    const credit = Math.min(this.prepaid, points);
    const owed = points - credit;
    if (owed > this.remaining) {
      throw new RateLimitedError(
        `Rate limit exceeded: this operation costs ${points} points and ${this.remaining} of ` +
          `${this.limit} are left until ${this.resetAt.toISOString()}; ask for fewer items or retry after the reset`,
      );
    }
    this.prepaid -= credit;
    if (owed === 0) return;
    this.used += owed;
    // Not awaited: the answer does not wait on Redis. Over the limit (a concurrent request spent first), the counter
    // rejects with its count, the points still added; Redis errors fall through to the memory counter.
    this.counter.consume(this.key, owed).catch(() => undefined);
  }
}

/**
 * Counts cost points in fixed windows of RATE_LIMIT_WINDOW_SECONDS: in this process's memory, or in Redis when
 * REDIS_URL is set, so that every instance on that Redis shares each count (an atomic Lua INCRBY per charge). The
 * window is part of the key and derives from `now` (the app's clock), so windows start at the same instants on every
 * instance; a key lives one window long, then Redis (or the memory store) drops it.
 *
 * While Redis cannot be reached, each process counts in its own memory (rate-limiter-flexible's insurance limiter)
 * and a warning is logged: requests keep being served, limited per process rather than shared.
 */
export async function createRateLimiter(
  config: Config,
  logger: Logger,
  keyPrefix = "rate-limit",
): Promise<RateLimiter> {
  const duration = config.rateLimitWindowSeconds;
  const windowMs = duration * 1000;
  const redis = config.redisUrl ? await connectRedis(config.redisUrl, logger) : undefined;

  const counter = (kind: string, points: number): Counter => {
    const options = { points, duration, keyPrefix: `${keyPrefix}:${kind}` };
    const memory = new RateLimiterMemory(options);
    // Redis errors (a disconnected client fails at once: no offline queue) fall through to the memory counter.
    return redis ? new RateLimiterRedis({ ...options, storeClient: redis, insuranceLimiter: memory }) : memory;
  };
  const counters = {
    user: counter("user", config.rateLimitUser),
    address: counter("address", config.rateLimitAnonymous),
  };

  return {
    count(viewer, clientAddress, now) {
      const limit = viewer ? config.rateLimitUser : config.rateLimitAnonymous;
      if (limit === 0) return undefined;
      const window = Math.floor(now.getTime() / windowMs);
      const key = `${viewer ? viewer.userId : clientAddress}:${window}`;
      const resetSeconds = Math.max(1, Math.ceil(((window + 1) * windowMs - now.getTime()) / 1000));
      const counter = viewer ? counters.user : counters.address;
      const decide = (consumed: number): RateLimitDecision =>
        new RateLimitWindow(counter, key, limit, consumed, resetSeconds, new Date((window + 1) * windowMs));
      // Over the limit, rate-limiter-flexible rejects with the count (a RateLimiterRes), not an Error.
      return counter.consume(key).then(
        (result) => decide(result.consumedPoints),
        (rejection: unknown) => {
          if (rejection instanceof RateLimiterRes) return decide(rejection.consumedPoints);
          throw rejection;
        },
      );
    },
    async close() {
      // QUIT lets the commands in flight finish; a client still trying to connect is simply stopped.
      if (redis?.status === "ready") await redis.quit();
      else redis?.disconnect();
    },
  };
}

/**
 * A connected client, or one that keeps reconnecting in the background when the first attempt fails (the server
 * starts anyway, counting per process until Redis answers). Each loss and recovery is logged once.
 */
async function connectRedis(url: string, logger: Logger): Promise<Redis> {
  // No offline queue: while disconnected a count fails at once (to the memory counter) instead of waiting.
  const { Redis } = await import("ioredis");
  const redis = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  let reachable = true;
  redis.on("error", (error: Error) => {
    if (!reachable) return;
    reachable = false;
    logger.warn("Redis unreachable: rate limits are counted per process until it answers", { error: error.message });
  });
  redis.on("ready", () => {
    if (reachable) return;
    reachable = true;
    logger.info("Redis reachable again: rate limits are shared");
  });
  await redis.connect().catch(() => undefined);
  return redis;
}

/**
 * The headers every limited response carries, in points once its operations are charged: the IETF draft's
 * `RateLimit-*` (reset in seconds) and GitHub's `X-RateLimit-*` (reset as Unix time), plus `Retry-After` when the
 * window was spent before the request.
 */
export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  const headers: Record<string, string> = {
    "RateLimit-Limit": String(decision.limit),
    "RateLimit-Remaining": String(decision.remaining),
    "RateLimit-Reset": String(decision.resetSeconds),
    "X-RateLimit-Limit": String(decision.limit),
    "X-RateLimit-Remaining": String(decision.remaining),
    "X-RateLimit-Used": String(Math.min(decision.used, decision.limit)),
    "X-RateLimit-Reset": String(decision.resetAt.getTime() / 1000),
  };
  if (!decision.allowed) headers["Retry-After"] = String(decision.resetSeconds);
  return headers;
}
