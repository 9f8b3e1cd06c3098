import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const hasCluster = (dataDir: string) => existsSync(join(dataDir, "PG_VERSION"));

/**
 * Creates a new PGlite cluster in `dataDir` (initdb) in a short-lived child process, when it holds none yet. initdb
 * inside PGlite's WebAssembly grows its memory far beyond what serving needs, and WebAssembly memory never shrinks:
 * done in the server's own process, a first start kept that much resident for its whole life, several times what a
 * restart on the same directory holds (docs/performance.md). The child's memory goes with it.
 */
export async function createClusterApart(dataDir: string): Promise<void> {
  if (hasCluster(dataDir)) return;
  const pglite = pathToFileURL(createRequire(import.meta.url).resolve("@electric-sql/pglite")).href;
  const script = `const { PGlite } = await import(${JSON.stringify(pglite)});
    const db = await PGlite.create(${JSON.stringify(dataDir)});
    await db.close();`;
  const child = spawn(process.execPath, ["--input-type=module", "--eval", script], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", resolve);
  });
  if (code !== 0 || !hasCluster(dataDir)) {
    throw new Error(`Could not create the embedded database in ${dataDir}: ${stderr.trim() || `exit code ${code}`}`);
  }
}

/**
 * A cluster tarball (PGlite's `dumpDataDir`) to start a new cluster from instead of running initdb: the tests' migrated
 * template, loaded once per test file. None when `dataDir` already holds a cluster.
 */
export function templateFor(dataDir: string, template: string | undefined): Blob | undefined {
  if (!template) return undefined;
  if (dataDir !== "memory://" && hasCluster(dataDir)) return undefined;
  return new Blob([readFileSync(template)]);
}
