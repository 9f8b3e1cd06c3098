import type { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import type { Config } from "../config.ts";
import type { RateLimitDecision, Viewer } from "../context.ts";
import type { Logger } from "../logger.ts";

export interface RateLimiter {
  /**
   * Counts the request against its caller's limit: per user when the request carries a valid token (all of the
   * user's tokens share it, so minting tokens buys no requests), per client address otherwise. Undefined when that
   * limit is 0 (switched off).
   */
  count(viewer: Viewer | null, clientAddress: string, now: Date): Promise<RateLimitDecision> | undefined;
  /** Ends the Redis connection, if any. */
  close(): Promise<void>;
}

/** What rate-limiter-flexible's counters have in common (memory, or Redis insured by memory). */
type Counter = Pick<RateLimiterMemory, "consume">;

/**
 * Counts requests in fixed windows of RATE_LIMIT_WINDOW_SECONDS: in this process's memory, or in Redis when
 * REDIS_URL is set, so that every instance on that Redis shares each count (one atomic Lua INCR per request). The
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
      const decide = (consumed: number): RateLimitDecision => ({
        allowed: consumed <= limit,
        limit,
        remaining: Math.max(0, limit - consumed),
        resetSeconds,
        resetAt: new Date((window + 1) * windowMs),
      });
      // Over the limit, rate-limiter-flexible rejects with the count (a RateLimiterRes), not an Error.
      return (viewer ? counters.user : counters.address).consume(key).then(
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

/** The `RateLimit-*` headers every limited response carries, plus `Retry-After` when the limit is reached. */
export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  const headers: Record<string, string> = {
    "RateLimit-Limit": String(decision.limit),
    "RateLimit-Remaining": String(decision.remaining),
    "RateLimit-Reset": String(decision.resetSeconds),
  };
  if (!decision.allowed) headers["Retry-After"] = String(decision.resetSeconds);
  return headers;
}
