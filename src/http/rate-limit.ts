import type { Config } from "../config.ts";
import type { Viewer } from "../context.ts";
import type { PrismaClient } from "../db/generated/client.ts";
import { countRequest, type RateLimitDecision } from "../modules/rate-limit/rate-limit.service.ts";

/**
 * Counts the request against its caller's limit: per token when the request carries a valid one, per client
 * address otherwise. Undefined when the limit is 0 (switched off).
 */
export function rateLimit(
  prisma: PrismaClient,
  config: Config,
  viewer: Viewer | null,
  clientAddress: string,
  now: Date,
): Promise<RateLimitDecision> | undefined {
  const limit = viewer ? config.rateLimitToken : config.rateLimitAnonymous;
  if (limit === 0) return undefined;
  const key = viewer ? `token:${viewer.tokenId}` : `address:${clientAddress}`;
  return countRequest(prisma, key, limit, config.rateLimitWindowSeconds * 1000, now);
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
