import type { Redis } from "ioredis";
import { LRUCache } from "lru-cache";
import type { Config } from "../platform/config.ts";
import type { Logger } from "../platform/logger.ts";
import type { RateLimitDecision, Viewer } from "../request/context.ts";

export interface RateLimiter {
  /**
   * Admits a request against its caller's bucket: per user when the request carries a valid token (all of the
   * user's tokens share it, so minting tokens buys no points), per client address otherwise. An admitted request has
   * taken its first point; its operations' actual costs are charged once they ran (RateLimitDecision.charge). A
   * request refused (the bucket holds less than one point) takes nothing. Undefined when that limit is 0 (off).
   */
  admit(viewer: Viewer | null, clientAddress: string, now: Date): Promise<RateLimitDecision> | undefined;
  /** Ends the Redis connection, if any. */
  close(): Promise<void>;
}

/** A bucket's content: `balance` points at `at` (ms); below 0 after a call cost more than it held. */
interface BucketState {
  balance: number;
  at: number;
}

/** Where buckets live: this process's memory, or Redis shared by every instance. */
interface BucketStore {
  /**
   * Refills the bucket to `now`, then takes `points`: only when it holds that many if `onlyIfHeld`, else always
   * (a charge after the work, which may leave it below 0). Resolves with whether it took them and the balance.
   */
  take(key: string, points: number, onlyIfHeld: boolean, now: number): Promise<{ taken: boolean; balance: number }>;
}

interface BucketShape {
  capacity: number;
  /** Points added per millisecond. */
  rate: number;
}

function refilled({ capacity, rate }: BucketShape, state: BucketState | undefined, now: number): number {
  if (!state) return capacity;
  return Math.min(capacity, state.balance + Math.max(0, now - state.at) * rate);
}

/** Milliseconds until a bucket at `balance` is full again: how long its state must be kept. */
const msUntilFull = ({ capacity, rate }: BucketShape, balance: number) => Math.ceil((capacity - balance) / rate);

/**
 * Buckets found full are dropped (an absent bucket is a full one), and the least recently used go past 100,000 callers.
 * No time-to-live: the app's clock, not the process's, decides when a bucket has refilled.
 */
function memoryStore(shape: BucketShape): BucketStore {
  const buckets = new LRUCache<string, BucketState>({ max: 100_000 });
  return {
    take(key, points, onlyIfHeld, now) {
      let balance = refilled(shape, buckets.get(key), now);
      const taken = !onlyIfHeld || balance >= points;
      if (taken) balance -= points;
      if (msUntilFull(shape, balance) > 0) buckets.set(key, { balance, at: now });
      else buckets.delete(key);
      return Promise.resolve({ taken, balance });
    },
  };
}

/**
 * The same bucket as one atomic Lua script per take, so that instances sharing a Redis share each bucket. Balances
 * travel as strings: Redis turns a Lua number reply into an integer.
 */
const takeScript = `
local capacity = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local points = tonumber(ARGV[4])
local onlyIfHeld = ARGV[5] == "1"
local state = redis.call("HMGET", KEYS[1], "balance", "at")
local balance = capacity
local at = now
if state[1] then
  balance = tonumber(state[1])
  at = tonumber(state[2])
  if now > at then
    balance = math.min(capacity, balance + (now - at) * rate)
    at = now
  end
end
local taken = 0
if (not onlyIfHeld) or balance >= points then
  balance = balance - points
  taken = 1
end
local ttl = math.ceil((capacity - balance) / rate)
if ttl > 0 then
  redis.call("HSET", KEYS[1], "balance", tostring(balance), "at", tostring(at))
  redis.call("PEXPIRE", KEYS[1], ttl)
else
  redis.call("DEL", KEYS[1])
end
return { taken, tostring(balance) }
`;

type RedisWithTake = Redis & {
  takeFromBucket(key: string, ...args: string[]): Promise<[number, string]>;
};

/** Redis, insured by this process's memory while Redis cannot be reached (each loss and recovery logged once). */
function redisStore(redis: RedisWithTake, shape: BucketShape, insurance: BucketStore): BucketStore {
  return {
    async take(key, points, onlyIfHeld, now) {
      try {
        const [taken, balance] = await redis.takeFromBucket(
          key,
          String(shape.capacity),
          String(shape.rate),
          String(now),
          String(points),
          onlyIfHeld ? "1" : "0",
        );
        return { taken: taken === 1, balance: Number(balance) };
      } catch {
        return insurance.take(key, points, onlyIfHeld, now);
      }
    },
  };
}

/**
 * A request's account in its caller's bucket. The first point was taken on admission; each operation's actual cost
 * is charged once it ran (what it returned and converted, src/request/request-budget.ts), all of it, even past what the bucket
 * held: the next request waits until the bucket has refilled to a point.
 */
class BucketAccount implements RateLimitDecision {
  constructor(
    private readonly store: BucketStore,
    private readonly shape: BucketShape,
    private readonly key: string,
    private readonly now: number,
    readonly allowed: boolean,
    private balance: number,
  ) {}

  get limit(): number {
    return this.shape.capacity;
  }

  get remaining(): number {
    return Math.max(0, Math.floor(this.balance));
  }

  get used(): number {
    return Math.min(this.shape.capacity, Math.ceil(this.shape.capacity - this.balance));
  }

  /** Seconds until the bucket is full again. */
  get resetSeconds(): number {
    return Math.max(0, Math.ceil(msUntilFull(this.shape, this.balance) / 1000));
  }

  get resetAt(): Date {
    return new Date(this.now + this.resetSeconds * 1000);
  }

  /** Seconds until the bucket holds the one point a request needs. */
  get retryAfterSeconds(): number {
    return Math.max(1, Math.ceil((1 - this.balance) / this.shape.rate / 1000));
  }

  charge(points: number): void {
    if (points <= 0) return;
    this.balance -= points;
    // Not awaited: the answer does not wait on Redis, whose errors fall through to the memory store.
    this.store.take(this.key, points, false, this.now).catch(() => undefined);
  }
}

/**
 * Token buckets of cost points, refilling continuously: a bucket holds at most RATE_LIMIT_USER points (per user;
 * RATE_LIMIT_ANONYMOUS per client address) and refills completely over RATE_LIMIT_WINDOW_SECONDS, so a burst spends
 * what was saved and a steady caller is limited to the refill rate, with no instant at which a window empties at
 * once. In this process's memory, or in Redis when REDIS_URL is set, so that every instance shares each bucket
 * (docs/api-guarantees.md, "Rate limits").
 */
export async function createRateLimiter(
  config: Config,
  logger: Logger,
  keyPrefix = "rate-limit",
): Promise<RateLimiter> {
  const periodMs = config.rateLimitWindowSeconds * 1000;
  const redis = config.redisUrl ? await connectRedis(config.redisUrl, logger) : undefined;
  const bucketsOf = (kind: string, capacity: number) => {
    const shape = { capacity, rate: capacity / periodMs };
    const memory = memoryStore(shape);
    return { shape, kind, store: redis ? redisStore(redis, shape, memory) : memory };
  };
  const users = bucketsOf("user", config.rateLimitUser);
  const addresses = bucketsOf("address", config.rateLimitAnonymous);

  return {
    admit(viewer, clientAddress, now) {
      const buckets = viewer ? users : addresses;
      if (buckets.shape.capacity === 0) return undefined;
      const key = `${keyPrefix}:${buckets.kind}:${viewer ? viewer.userId : clientAddress}`;
      const at = now.getTime();
      return buckets.store
        .take(key, 1, true, at)
        .then(({ taken, balance }) => new BucketAccount(buckets.store, buckets.shape, key, at, taken, balance));
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
async function connectRedis(url: string, logger: Logger): Promise<RedisWithTake> {
  // No offline queue: while disconnected a take fails at once (to the memory store) instead of waiting.
  const { Redis } = await import("ioredis");
  const redis = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  redis.defineCommand("takeFromBucket", { numberOfKeys: 1, lua: takeScript });
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
  return redis as RedisWithTake;
}

/**
 * The headers every limited response carries, in points once its operations are charged: the IETF draft's
 * `RateLimit-*` (seconds until the bucket is full) and GitHub's `X-RateLimit-*` (that instant as Unix time), plus
 * `Retry-After` (seconds until the bucket holds a point) on a refusal.
 */
export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  const headers: Record<string, string> = {
    "RateLimit-Limit": String(decision.limit),
    "RateLimit-Remaining": String(decision.remaining),
    "RateLimit-Reset": String(decision.resetSeconds),
    "X-RateLimit-Limit": String(decision.limit),
    "X-RateLimit-Remaining": String(decision.remaining),
    "X-RateLimit-Used": String(decision.used),
    "X-RateLimit-Reset": String(Math.ceil(decision.resetAt.getTime() / 1000)),
  };
  if (!decision.allowed) headers["Retry-After"] = String(decision.retryAfterSeconds);
  return headers;
}
