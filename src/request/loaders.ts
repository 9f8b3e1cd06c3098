import DataLoader from "dataloader";
import type { RequestContext } from "./context.ts";
import { definePerRequest } from "./request-state.ts";

/**
 * Declares a per-request DataLoader: the returned function gives the request's instance, creating it on first
 * use, so each module keeps its loaders beside its service without a central registry.
 */
export function defineLoader<Key, Value, CacheKey = Key>(
  name: string,
  batch: (ctx: RequestContext, keys: readonly Key[]) => Promise<readonly (Value | Error)[]>,
  options: DataLoader.Options<Key, Value, CacheKey> = {},
): (ctx: RequestContext) => DataLoader<Key, Value, CacheKey> {
  return definePerRequest(
    `loader ${name}`,
    (ctx) => new DataLoader<Key, Value, CacheKey>((keys) => batch(ctx, keys), options),
  );
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
 * promise, and graphql-jit keeps its synchronous path. One map per request: a weak entry per row made the
 * collector trace thousands of ephemerons.
 */
export function defineSettled<Key, Value>(name: string): Settled<Key, Value> {
  const valuesOf = definePerRequest(`settled ${name}`, () => new Map<Key, Value>());
  return {
    get: (ctx, key) => valuesOf(ctx).get(key),
    set: (ctx, key, value) => void valuesOf(ctx).set(key, value),
  };
}

/**
 * A subscription's event with the request's state emptied (loaders, settled rows, access already decided): a
 * subscription keeps one context for its lifetime, and an event's object fields must read what holds when the event
 * is sent, not what the first event found.
 */
export function freshlyLoaded<Event>(ctx: RequestContext, event: Event): Event {
  ctx.state.clear();
  return event;
}
