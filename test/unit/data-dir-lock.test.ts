import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DataDirLockedError, lockDataDir } from "../../src/db/data-dir-lock.ts";
import { closeDataDirToOthers, createDataDir, DataDirError } from "../../src/platform/data-dir.ts";

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

describe("a lock whose pid now belongs to another process", () => {
  it("is taken over: the process it names is identified by more than its pid", () => {
    // The parent of this process runs, but it is not the process that wrote this lock (another boot's, say).
    const holder = { pid: process.ppid, host: hostname(), role: "server", since: "2026-01-01T00:00:00.000Z" };
    const stale = dataDirWithLock({ ...holder, process: "another-boot/12345" });
    lockDataDir(stale.dataDir, "server").release();
    // Without the identity (a lock of an earlier version), a running pid still counts as the holder.
    const older = dataDirWithLock(holder);
    expect(() => lockDataDir(older.dataDir, "server")).toThrow(`pid ${process.ppid}`);
  });
});

describe("creating DATA_DIR", () => {
  it("makes it and its missing parents owner-only (0700)", () => {
    const { dataDir } = dataDirWithLock();
    const nested = join(dataDir, "a", "b");
    lockDataDir(nested, "direct").release();
    for (const dir of [join(dataDir, "a"), nested]) expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it("refuses a file, or a place where nothing can be created, with one line naming DATA_DIR", () => {
    const { dataDir } = dataDirWithLock();
    const file = join(dataDir, "a-file");
    writeFileSync(file, "");
    expect(() => createDataDir(file)).toThrow(
      new DataDirError(
        `DATA_DIR ${file} is a file, not a directory: set DATA_DIR to a directory this user can write (it is created if missing)`,
      ),
    );
    // Node's recursive mkdir loops for ever there.
    expect(() => createDataDir("/proc/gateway-data")).toThrow(
      /^DATA_DIR \/proc\/gateway-data cannot be created \(ENOENT\)/,
    );
  });

  it("closes an existing DATA_DIR open to other users, and says so", () => {
    const { dataDir } = dataDirWithLock();
    chmodSync(dataDir, 0o755);
    expect(closeDataDirToOthers(dataDir)).toBe(
      `DATA_DIR ${dataDir} was open to other users (mode 755): it is 0700 now`,
    );
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(closeDataDirToOthers(dataDir)).toBeUndefined();
  });
});
