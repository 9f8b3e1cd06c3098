import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

/**
 * Tests that start server processes run the bundle `npm start` runs (dist/main.js, packages bundled in): built
 * here once, before the files run in parallel, when src/ changed since the install built it.
 */
export default function buildServerBundle() {
  execFileSync(process.execPath, ["scripts/build.mjs", "--if-stale"], {
    cwd: fileURLToPath(new URL("..", import.meta.url)),
    stdio: "inherit",
  });
}
