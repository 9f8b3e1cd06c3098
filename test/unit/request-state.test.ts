import { describe, expect, it } from "vitest";
import type { RequestContext } from "../../src/request/context.ts";
import { defineLoader, defineSettled, freshlyLoaded } from "../../src/request/loaders.ts";
import { definePerRequest } from "../../src/request/request-state.ts";

/** A request context as far as its state goes: the mechanism reads nothing else. */
function request(): RequestContext {
  return { state: new Map() } as unknown as RequestContext;
}

describe("per-request state", () => {
  it("is created once per request and name, and never shared between requests", () => {
    let created = 0;
    const counter = () => definePerRequest("counter", () => ({ serial: ++created }));
    const first = request();
    const second = request();
    // A definition made again under the same name (a loader per list order) shares the request's instance.
    expect(counter()(first)).toBe(counter()(first));
    expect(counter()(second)).not.toBe(counter()(first));
    expect(created).toBe(2);
  });

  it("keeps loaders and settled rows in the same place, and a subscription's event forgets both", async () => {
    let batches = 0;
    const doubled = defineLoader<number, number>("doubled", async (_ctx, keys) => {
      batches++;
      return keys.map((key) => key * 2);
    });
    const settled = defineSettled<string, number>("numbers");
    const ctx = request();
    expect(await doubled(ctx).load(2)).toBe(4);
    expect(await doubled(ctx).load(2)).toBe(4);
    settled.set(ctx, "a", 1);
    expect(batches).toBe(1);
    expect(settled.get(ctx, "a")).toBe(1);

    expect(freshlyLoaded(ctx, "event")).toBe("event");
    expect(settled.get(ctx, "a")).toBeUndefined();
    expect(await doubled(ctx).load(2)).toBe(4);
    expect(batches).toBe(2);
  });
});
