import { LRUCache } from "lru-cache";

/*
 * The caches keyed by a GraphQL document's text (yoga's parse cache and its parse-error cache, graphql-jit's
 * compiled operations) count the text they hold, not their entries: a text of a megabyte (a few thousand tokens
 * padded with a comment) weighs what it is. A text larger than `maxTextBytes` is parsed, validated, compiled and run
 * each time it is sent, never kept. Yoga's validation results are held per parsed document (a WeakMap): they live
 * and go with its parse cache's entry.
 */

export interface DocumentCacheOptions {
  /** Each cache's budget: the sum of its keys' lengths. */
  maxBytes: number;
  /** Texts longer than this are not cached. */
  maxTextBytes: number;
  /** A bound on the entries too, where each holds more than its text (compiled code). */
  maxEntries?: number;
}

export interface TextKeyedCache<Value> {
  get(key: string): Value | undefined;
  set(key: string, value: Value): void;
  /** The text held, by the keys' lengths. */
  bytes(): number;
}

export function textKeyedCache<Value extends object>({
  maxBytes,
  maxTextBytes,
  maxEntries,
}: DocumentCacheOptions): TextKeyedCache<Value> {
  const storable = Math.max(0, Math.min(maxTextBytes, maxBytes));
  const cache = new LRUCache<string, Value>({
    ...(maxEntries === undefined ? {} : { max: maxEntries }),
    maxSize: Math.max(1, maxBytes),
    sizeCalculation: (_value, key) => Math.max(1, key.length),
  });
  return {
    get: (key) => cache.get(key),
    set(key, value) {
      if (key.length <= storable) cache.set(key, value);
    },
    bytes: () => cache.calculatedSize,
  };
}
