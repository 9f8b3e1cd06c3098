import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startServerProcess } from "../helpers/server-process.ts";

// Process managers signal the process they started: `npm start` (README, docs/operations.md) or the container's
// `node dist/main.js`. Either way the signal must reach the server, which drains, frees its port and exits 0 (a drain
// past 10 s ends in exit code 1, src/app/main.ts). The starts take turns on one PGlite directory: only the first creates it.

const scratch = mkdtempSync(join(tmpdir(), "gateway-signals-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Whether nothing listens on `port` of 127.0.0.1 any more. */
function portIsFree(port: number): Promise<boolean> {
  const probe = createServer();
  return new Promise((resolve) => {
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}

const pglite = { DATA_DIR: join(scratch, "data"), DATABASE_URL: "", RUN_JOBS: "false" };

describe("stopping what the docs start", { timeout: 120_000 }, () => {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`npm start: ${signal} to npm stops the server, frees its port and exits 0`, async () => {
      const server = await startServerProcess(pglite, { command: ["npm", "start"] });
      const port = Number(new URL(server.url).port);
      expect(await server.stop(signal)).toBe(0);
      expect(await portIsFree(port)).toBe(true);
    });
  }

  it("node dist/main.js (the container's command): SIGINT drains and exits 0", async () => {
    const server = await startServerProcess(pglite);
    expect(await server.stop("SIGINT")).toBe(0);
  });
});

describe(".env", { timeout: 120_000 }, () => {
  it("is read from the working directory, under the environment, which wins", async () => {
    const cwd = join(scratch, "with-env-file");
    mkdirSync(cwd);
    // HOST from .env would fail the start (not an address of this machine); the environment's wins.
    writeFileSync(join(cwd, ".env"), "PUBLIC_URL=http://docs.from-dotenv.test\nHOST=203.0.113.7\n");
    const server = await startServerProcess(pglite, { cwd });
    expect(server.output()).toContain("listening on http://docs.from-dotenv.test");
    expect(await server.stop()).toBe(0);
  });
});
