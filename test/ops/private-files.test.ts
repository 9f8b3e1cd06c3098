import { execFile } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { startServerProcess } from "../helpers/server-process.ts";

// The embedded database's files hold emails and token rows (its write-ahead log too): no other local user may read
// them, nor take the admin socket's place first.

const run = promisify(execFile);
const scratch = mkdtempSync(join(tmpdir(), "private-files-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Every file and folder under `dir` whose mode lets group or others in, as `path mode`. */
function openToOthers(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((path) => (statSync(path).mode & 0o077) !== 0)
    .map((path) => `${path} ${(statSync(path).mode & 0o777).toString(8)}`);
}

describe("the embedded database's files", { timeout: 180_000 }, () => {
  it("are the server's user's only, an open DATA_DIR is closed, and a long DATA_DIR's socket is in a private directory", async () => {
    // Over 100 bytes with the socket's name: too long for a Unix socket inside it.
    const dataDir = join(scratch, "a-data-directory-whose-path-is-long-enough".repeat(2), "data");
    mkdirSync(dataDir, { recursive: true });
    chmodSync(dataDir, 0o755);
    const server = await startServerProcess({
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      RUN_JOBS: "false",
      LOG_LEVEL: "warn",
    });
    let socketDir = "";
    try {
      expect(server.output()).toContain(`DATA_DIR ${dataDir} was open to other users (mode 755): it is 0700 now`);
      const { socket } = JSON.parse(readFileSync(join(dataDir, "gateway.lock"), "utf8")) as { socket: string };
      socketDir = dirname(socket);
      // A name no other user can predict, in a directory only this user may enter.
      expect(socketDir).toMatch(new RegExp(`^${tmpdir()}/docs-gateway-\\w{6}$`));
      expect(statSync(socketDir).mode & 0o777).toBe(0o700);
      const { stdout } = await run(process.execPath, ["dist/cli.js", "user", "list"], {
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "" },
      });
      expect(stdout).toContain("admin@example.com");
    } finally {
      expect(await server.stop()).toBe(0);
    }
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(readdirSync(dataDir).length).toBeGreaterThan(5);
    expect(openToOthers(dataDir)).toEqual([]);
    expect(existsSync(socketDir)).toBe(false);
  });
});
