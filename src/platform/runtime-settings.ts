import { setFlagsFromString } from "node:v8";

// Imported first by main.ts, so these apply however the server is started (`npm start`, `node dist/main.js`, a
// container), before the bundle's code runs. V8 reads both each time it uses them (the heap limit after each full
// collection, the pretenuring decisions at each young collection), so setting them here works as on the command
// line: checked with --trace-gc-verbose (limit factor 2.0 instead of up to 4.0) and --trace-pretenuring (no
// decisions). Neither depends on the host's size; docs/operations.md says why each is kept.
setFlagsFromString("--heap-growing-percent=100");
setFlagsFromString("--no-allocation-site-pretenuring");

/**
 * The memory settings only a process's start can make (V8 sizes the young generation when it creates the heap;
 * glibc reads its tunables when the process starts), that this process was started without. `npm start` and the
 * Dockerfile set both; a process started otherwise says so in its log instead of silently differing.
 */
export function missingStartSettings(
  env: NodeJS.ProcessEnv = process.env,
  execArgv: readonly string[] = process.execArgv,
): string[] {
  const missing: string[] = [];
  const nodeOptions = `${execArgv.join(" ")} ${env.NODE_OPTIONS ?? ""}`;
  if (!nodeOptions.includes("--max-semi-space-size")) missing.push("--max-semi-space-size=8 (node or NODE_OPTIONS)");
  if (!env.GLIBC_TUNABLES?.includes("glibc.malloc.mmap_threshold")) {
    missing.push("GLIBC_TUNABLES=glibc.malloc.mmap_threshold=131072");
  }
  return missing;
}
