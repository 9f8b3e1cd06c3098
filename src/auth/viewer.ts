import type { ApiToken } from "../db/generated/client.ts";
import type { SqlReader } from "../db/sql.ts";
import type { Clock } from "../platform/clock.ts";
import type { Viewer } from "../request/context.ts";
import type { TokenCache, VerifiedToken } from "./token-cache.ts";
import { hashMatches, tokenFromValue } from "./tokens.ts";

/** The bearer token of a request, or undefined; a malformed header counts as no token. */
export function bearerToken(authorization: string | null): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  return match?.[1];
}

/**
 * Resolves a token to its user; unknown, revoked and expired tokens give null (401 for the caller). A token verified
 * before comes from `cache` without a statement; expiry is checked on every request.
 */
export async function authenticate(
  sql: SqlReader,
  clock: Clock,
  cache: TokenCache,
  token: string | undefined,
): Promise<Viewer | null> {
  if (!token) return null;
  const { lookup, hash } = tokenFromValue(token);
  const now = clock.now();
  const cached = cache.get(hash, now);
  if (cached) return viewerOf(cached, clock);
  const revision = cache.revision();
  // Hand-written SQL (see db/sql.ts): every request with a token not cached yet runs this.
  const [row] = await sql.rows<Pick<ApiToken, "id" | "userId" | "hash" | "revokedAt" | "expiresAt">>(
    `SELECT id, "userId", hash, "revokedAt", "expiresAt" FROM "ApiToken" WHERE lookup = $1`,
    [lookup],
  );
  if (!row || row.revokedAt || !hashMatches(hash, row.hash)) return null;
  const verified: VerifiedToken = { tokenId: row.id, userId: row.userId, expiresAt: row.expiresAt };
  cache.set(hash, verified, revision, now);
  return viewerOf(verified, clock);
}

function viewerOf(token: VerifiedToken, clock: Clock): Viewer | null {
  if (token.expiresAt && token.expiresAt <= clock.now()) return null;
  return { userId: token.userId, tokenId: token.tokenId };
}
