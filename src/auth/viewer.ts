import type { Clock } from "../clock.ts";
import type { Viewer } from "../context.ts";
import type { ApiToken } from "../db/generated/client.ts";
import type { SqlReader } from "../db/sql.ts";
import { lookupOf, tokenMatches } from "./tokens.ts";

/** The bearer token of a request, or undefined; a malformed header counts as no token. */
export function bearerToken(authorization: string | null): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  return match?.[1];
}

/** Resolves a token to its user; unknown, revoked and expired tokens give null (401 for the caller). */
export async function authenticate(sql: SqlReader, clock: Clock, token: string | undefined): Promise<Viewer | null> {
  if (!token) return null;
  // Every authenticated request runs this: hand-written SQL (see db/sql.ts).
  const [row] = await sql.rows<Pick<ApiToken, "id" | "userId" | "hash" | "revokedAt" | "expiresAt">>(
    `SELECT id, "userId", hash, "revokedAt", "expiresAt" FROM "ApiToken" WHERE lookup = $1`,
    [lookupOf(token)],
  );
  if (!row || row.revokedAt || (row.expiresAt && row.expiresAt <= clock.now())) return null;
  if (!tokenMatches(token, row.hash)) return null;
  return { userId: row.userId, tokenId: row.id };
}
