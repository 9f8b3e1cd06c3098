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
