import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DataDirLockedError, lockDataDir } from "../../src/db/data-dir-lock.ts";

// The holder decisions no second process can show: this process's own pid, and a holder on another host. Holders
// that are other processes are tested with real ones (test/cli/embedded-server.test.ts, test/ops/startup-failures.test.ts).

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function dataDirWithLock(holder?: object): { dataDir: string; file: string } {
  const dataDir = mkdtempSync(join(tmpdir(), "data-dir-lock-"));
  dirs.push(dataDir);
  const file = join(dataDir, "gateway.lock");
  if (holder) writeFileSync(file, JSON.stringify(holder));
  return { dataDir, file };
}

describe("the DATA_DIR lock", () => {
  it("refuses a second opening in the same process, and is free again once released", () => {
    const { dataDir, file } = dataDirWithLock();
    const lock = lockDataDir(dataDir, "direct");
    expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({ pid: process.pid, role: "direct" });
    expect(() => lockDataDir(dataDir, "direct")).toThrow(DataDirLockedError);
    lock.release();
    expect(existsSync(file)).toBe(false);
    lockDataDir(dataDir, "server").release();
  });

  it("takes over a lock naming this pid that this process never took (a restarted container's pid 1)", () => {
    const since = "2026-01-01T00:00:00.000Z";
    const { dataDir, file } = dataDirWithLock({ pid: process.pid, host: hostname(), role: "server", since });
    const lock = lockDataDir(dataDir, "server");
    expect(JSON.parse(readFileSync(file, "utf8")).since).not.toBe(since);
    lock.release();
  });

  it("counts a holder on another host as alive: it cannot be checked from here", () => {
    const holder = { pid: 1, host: `not-${hostname()}`, role: "server", since: "2026-01-01T00:00:00.000Z" };
    const { dataDir } = dataDirWithLock(holder);
    expect(() => lockDataDir(dataDir, "server")).toThrow(`pid 1 on host not-${hostname()}`);
  });
});
