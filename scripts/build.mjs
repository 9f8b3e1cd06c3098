// Compiles the server ahead of time: src/main.ts and everything it imports from src/ into one ES module,
// dist/main.js, which `npm start` runs with plain node (no TypeScript loader in the serving process: it cost ~150 MB
// of RSS and seconds of start-up). Packages stay in node_modules: several find their own files (Prisma's and
// PGlite's WebAssembly, PDFKit's fonts) next to their code. `--if-stale` (npm's prestart) rebuilds only when a file
// or folder under src/, this script or package.json is newer than the bundle.
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
const outfile = join(root, "dist", "main.js");

/** The newest modification time among `path` and, for a folder, everything below it (a folder's own time moves when an entry is added, removed or renamed). */
function newestChange(path) {
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestChange(join(path, entry)));
  return newest;
}

const inputs = [join(root, "src"), join(root, "package.json"), fileURLToPath(import.meta.url)];
if (process.argv.includes("--if-stale") && existsSync(outfile)) {
  const built = statSync(outfile).mtimeMs;
  if (Math.max(...inputs.map(newestChange)) <= built) process.exit(0);
}

await build({
  entryPoints: [join(root, "src", "main.ts")],
  outfile,
  bundle: true,
  packages: "external",
  platform: "node",
  format: "esm",
  target: "node20.19",
  // Stack traces of the bundle map back to src/ with `node --enable-source-maps` (see README, "Running it").
  sourcemap: "linked",
  logLevel: "warning",
});
