import type { PrismaClient } from "../../db/generated/client.ts";

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the current window ends and the count starts again. */
  resetSeconds: number;
}

/**
 * Counts one request of `key` in the current fixed window and says whether it is within `limit`. One atomic
 * upsert, so every server process on the database shares the count and concurrent requests never over-admit.
 */
export async function countRequest(
  prisma: PrismaClient,
  key: string,
  limit: number,
  windowMs: number,
  now: Date,
): Promise<RateLimitDecision> {
  const windowStart = Math.floor(now.getTime() / windowMs) * windowMs;
  // Prisma stores UTC wall times in timestamp columns: pass UTC wall times, whatever the session time zone.
  const at = new Date(windowStart).toISOString();
  const rows = await prisma.$queryRaw<{ count: number }[]>`
    INSERT INTO "RateLimitBucket" ("key", "windowStart", "count") VALUES (${key}, ${at}::timestamp, 1)
    ON CONFLICT ("key", "windowStart") DO UPDATE SET "count" = "RateLimitBucket"."count" + 1
    RETURNING "count"`;
  const count = Number(rows[0]?.count ?? limit + 1);
  return {
    allowed: count <= limit,
    limit,
    remaining: Math.max(0, limit - count),
    resetSeconds: Math.max(1, Math.ceil((windowStart + windowMs - now.getTime()) / 1000)),
  };
}

/** Drops the windows that ended before `before` (a recurring job). */
export async function purgeRateLimitBuckets(prisma: PrismaClient, before: Date): Promise<number> {
  const { count } = await prisma.rateLimitBucket.deleteMany({ where: { windowStart: { lt: before } } });
  return count;
}
