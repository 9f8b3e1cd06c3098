import DataLoader from "dataloader";
import type { RequestContext } from "./context.ts";

/**
 * Declares a per-request DataLoader: the returned function gives the request's instance, creating it on first
 * use, so each module keeps its loaders beside its service without a central registry.
 */
export function defineLoader<Key, Value, CacheKey = Key>(
  name: string,
  batch: (ctx: RequestContext, keys: readonly Key[]) => Promise<readonly (Value | Error)[]>,
  options: DataLoader.Options<Key, Value, CacheKey> = {},
): (ctx: RequestContext) => DataLoader<Key, Value, CacheKey> {
  return (ctx) => {
    let loader = ctx.loaders.get(name) as DataLoader<Key, Value, CacheKey> | undefined;
    if (!loader) {
      loader = new DataLoader<Key, Value, CacheKey>((keys) => batch(ctx, keys), options);
      ctx.loaders.set(name, loader as DataLoader<unknown, unknown, unknown>);
    }
    return loader;
  };
}

/** Orders batch results to match the keys; missing keys give `fallback`. */
export function byKeys<Key, Row>(keys: readonly Key[], rows: readonly Row[], keyOf: (row: Row) => Key): (Row | null)[] {
  const found = new Map<Key, Row>();
  for (const row of rows) found.set(keyOf(row), row);
  return keys.map((key) => found.get(key) ?? null);
}

/**
 * The values of a `loadMany` by key; keys whose load failed are left out (what a list settles for its rows skips
 * them, and their fields load, and fail, on their own).
 */
export function loadedByKey<Key, Value>(keys: readonly Key[], loaded: readonly (Value | Error)[]): Map<Key, Value> {
  const byKey = new Map<Key, Value>();
  loaded.forEach((value, index) => {
    if (!(value instanceof Error)) byKey.set(keys[index] as Key, value);
  });
  return byKey;
}

/** Values a list settled for its rows, per request; `get` is undefined for a key not settled. */
export interface Settled<Key, Value> {
  get(ctx: RequestContext, key: Key): Value | undefined;
  set(ctx: RequestContext, key: Key, value: Value): void;
}

/**
 * A per-request map of what a list settles for its rows before their fields resolve (a site space's space, a
 * change request's creator): the fields of thousands of rows then answer at once instead of each through a
 * promise, and graphql-jit keeps its synchronous path. One weak entry per request: a weak entry per row made the
 * collector trace thousands of ephemerons.
 */
export function defineSettled<Key, Value>(): Settled<Key, Value> {
  const byRequest = new WeakMap<RequestContext, Map<Key, Value>>();
  return {
    get: (ctx, key) => byRequest.get(ctx)?.get(key),
    set(ctx, key, value) {
      const values = byRequest.get(ctx) ?? new Map<Key, Value>();
      byRequest.set(ctx, values);
      values.set(key, value);
    },
  };
}

/**
 * A subscription's event with the request's loaders emptied: a subscription keeps one context for its lifetime, and
 * an event's object fields must read what holds when the event is sent, not what the first event found.
 */
export function freshlyLoaded<Event>(ctx: RequestContext, event: Event): Event {
  ctx.loaders.clear();
  return event;
}
