import { vi } from "vitest";

/** What a run logs with `console.warn`, where Apollo's invariant warnings and graphcache's both go. */
export async function warningsOf(run: () => Promise<void>): Promise<string[]> {
  const warnings: string[] = [];
  const spy = vi.spyOn(console, "warn").mockImplementation((...args: unknown[]) => {
    warnings.push(args.map(String).join(" "));
  });
  try {
    await run();
  } finally {
    spy.mockRestore();
  }
  return warnings;
}

/** A fetch that counts the requests it sends. */
export function countingFetch() {
  const counter = {
    requests: 0,
    fetch: (input: RequestInfo | URL, init?: RequestInit) => {
      counter.requests++;
      return fetch(input, init);
    },
  };
  return counter;
}
