/*
 * The size of an OpenAPI document once its internal `$ref`s are replaced by what they point at, counted without
 * building it: each object is measured once (a `$ref` chain where each level references the previous twice is
 * 3.8 KB at 30 levels and gigabytes expanded; dereferencing it took hours). Used to refuse such a document before
 * it is dereferenced.
 */

/** Thrown from the walk once the count passes the limit: nothing past it is measured. */
class OverLimit extends Error {}

/** What a local JSON pointer (`#/components/schemas/Pet`) points at in `root`; undefined when nothing. */
function resolvePointer(root: unknown, ref: string): unknown {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) return undefined;
  let node = root;
  for (const raw of ref.slice(2).split("/")) {
    let key: string;
    try {
      key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    } catch {
      return undefined;
    }
    if (typeof node !== "object" || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/**
 * The bytes of `root`'s JSON with every resolvable local `$ref` expanded (a reference back into one of its own
 * ancestors stays a reference, as the dereferencing leaves it), or `Infinity` once past `limit`.
 */
export function expandedJsonBytes(root: unknown, limit: number): number {
  const measured = new Map<object, number>();
  const inProgress = new Set<object>();
  let total = 0;
  const charge = (bytes: number) => {
    total += bytes;
    if (total > limit) throw new OverLimit();
    return bytes;
  };
  const size = (value: unknown): number => {
    if (typeof value !== "object" || value === null) return charge(JSON.stringify(value ?? null)?.length ?? 4);
    const ref = (value as { $ref?: unknown }).$ref;
    if (typeof ref === "string") {
      const target = resolvePointer(root, ref);
      if (typeof target === "object" && target !== null && !inProgress.has(target)) return size(target);
    }
    const known = measured.get(value);
    // Measured before: count it again (it appears again once expanded) without walking it again.
    if (known !== undefined) return charge(known);
    inProgress.add(value);
    const before = total;
    const entries = Array.isArray(value) ? value.map((item) => ["", item] as const) : Object.entries(value);
    charge(2 + Math.max(0, entries.length - 1));
    for (const [key, item] of entries) {
      if (!Array.isArray(value)) charge(JSON.stringify(key).length + 1);
      size(item);
    }
    inProgress.delete(value);
    const bytes = total - before;
    measured.set(value, bytes);
    return bytes;
  };
  try {
    size(root);
    return total;
  } catch (error) {
    if (error instanceof OverLimit) return Number.POSITIVE_INFINITY;
    throw error;
  }
}
