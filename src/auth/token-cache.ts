import { LRUCache } from "lru-cache";
import type { EventBus } from "../events/bus.ts";

/** A token whose secret matched its row and that was not revoked when read. */
export interface VerifiedToken {
  tokenId: string;
  userId: string;
  expiresAt: Date | null;
}

/**
 * Verified tokens by the sha256 of the token, so that a request with a known token sends no statement to
 * authenticate. Only token -> user is kept: memberships and roles are read per request, so their changes apply at
 * once. Revocations reach every instance through the event bus (`apiTokensRevoked`). While this process's LISTEN
 * connection is down a revocation's event would be lost: meanwhile an entry serves for `staleWhileDownMs` after its
 * row was read, then the row is read again; the cache is emptied when the connection is back. A connection that dies
 * silently is found out by its probe within seconds (src/db/listen.ts).
 */
export interface TokenCache {
  get(hash: string, now: Date): VerifiedToken | undefined;
  /** Taken before reading a token's row: `set` keeps nothing if a revocation arrived meanwhile (a stale read). */
  revision(): number;
  /** `now`: when the row was read. */
  set(hash: string, token: VerifiedToken, revision: number, now: Date): void;
}

/** How long a token's row read while events cannot arrive is trusted: a revocation then applies within this. */
const staleWhileDownMs = 2_000;

/** The one key of the `apiTokensRevoked` topic: every cache listens to every revocation. */
const everyToken = "all";

/** The caches of this process fed by each bus, which a revocation announced on that bus evicts at once. */
const cachesOfBus = new WeakMap<EventBus, Set<(tokenIds: readonly string[]) => void>>();

export function createTokenCache(events: EventBus, { max = 10_000, ttlMs = 60_000 } = {}): TokenCache {
  const entries = new LRUCache<string, { token: VerifiedToken; readAt: number }>({ max, ttl: ttlMs });
  let revisions = 0;
  const forget = (tokenIds: readonly string[]) => {
    revisions += 1;
    const revoked = new Set(tokenIds);
    const hashes = [...entries.entries()].filter(([, entry]) => revoked.has(entry.token.tokenId)).map(([hash]) => hash);
    for (const hash of hashes) entries.delete(hash);
  };

  events.onEventsMissed(() => {
    revisions += 1;
    entries.clear();
  });

  const local = cachesOfBus.get(events) ?? new Set();
  cachesOfBus.set(events, local);
  local.add(forget);
  const subscription = events.subscribe("apiTokensRevoked", everyToken);
  // Ends when the bus closes.
  void (async () => {
    for await (const { tokenIds } of subscription) forget(tokenIds);
    local.delete(forget);
  })();

  return {
    get(hash, now) {
      const entry = entries.get(hash);
      if (!entry) return undefined;
      if (!events.healthy() && now.getTime() - entry.readAt >= staleWhileDownMs) return undefined;
      return entry.token;
    },
    revision: () => revisions,
    set(hash, token, revision, now) {
      if (revision === revisions) entries.set(hash, { token, readAt: now.getTime() });
    },
  };
}

/**
 * Call once a revocation has committed: the tokens are refused at once by this process's caches on `events`, and
 * by every other instance's as soon as the NOTIFY reaches it (well within a second), or within `staleWhileDownMs` by
 * an instance whose LISTEN connection is down.
 */
export async function announceRevokedTokens(events: EventBus, tokenIds: string[]): Promise<void> {
  for (const forget of cachesOfBus.get(events) ?? []) forget(tokenIds);
  await events.publish("apiTokensRevoked", everyToken, { tokenIds });
}
