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
