import { linkSync, mkdirSync, readFileSync, rmdirSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { createDataDir } from "../platform/data-dir.ts";

/**
 * PGlite has no server process of its own: two processes opening one data directory each run PostgreSQL on the same
 * files and silently overwrite each other's writes. So whoever opens DATA_DIR holds `DATA_DIR/gateway.lock` (its pid,
 * host and role) for as long as it has the database open, and anyone else is refused at once with the holder named.
 */
const lockFileName = "gateway.lock";

/** A stale-lock takeover in progress older than this was abandoned by a process that died during it. */
const abandonedTakeoverMs = 10_000;

/** `server`: `npm start`, which runs the CLI's commands sent to its admin socket; `direct`: anything else. */
type LockRole = "server" | "direct";

export interface DataDirHolder {
  pid: number;
  host: string;
  role: LockRole;
  since: string;
  /** Which process that pid was (`processIdentity`): a pid reused by another process since is not the holder. */
  process?: string;
  /** The server's admin socket (admin-socket.ts), where the CLI sends its commands. */
  socket?: string;
}

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: DataDirHolder,
  ) {
    const who = holder.role === "server" ? "a server (npm start)" : "another process (the CLI, a seed or a script)";
    const where = holder.host === hostname() ? "" : ` on host ${holder.host}`;
    super(
      `DATA_DIR ${dataDir} is in use by ${who}, pid ${holder.pid}${where} since ${holder.since}: stop it or set ` +
        `DATA_DIR to another directory (if that process no longer runs, delete ${join(dataDir, lockFileName)})`,
    );
  }
}

export interface DataDirLock {
  release(): void;
}

function readHolder(file: string): DataDirHolder | undefined {
  try {
    const holder = JSON.parse(readFileSync(file, "utf8")) as Partial<DataDirHolder>;
    return typeof holder.pid === "number" && typeof holder.host === "string" ? (holder as DataDirHolder) : undefined;
  } catch (error) {
    // Unreadable JSON is a lock nobody can be holding (it is written whole, see `tryCreate`).
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
}

/**
 * Which process `pid` is on this host: the boot and the process's start time in clock ticks since boot (Linux's
 * /proc/<pid>/stat, field 22), together unique for the machine's life. Undefined where /proc does not tell.
 */
function processIdentity(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name, which is in parentheses and may hold spaces: the 3rd field on, so 22nd is 19.
    const startTime = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
    const boot = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
    return startTime ? `${boot}/${startTime}` : undefined;
  } catch {
    return undefined;
  }
}

/** The lock files this process holds: opening one of their directories a second time is refused too. */
const heldHere = new Set<string>();

/**
 * Whether the holder still runs. A holder on another host (a shared volume) cannot be checked: it counts as alive.
 * Our own pid, on a lock this process did not take, is a previous life of this pid (a container's process 1
 * restarted), not a holder.
 */
function isAlive(holder: DataDirHolder, file: string): boolean {
  if (holder.host !== hostname()) return true;
  if (holder.pid === process.pid) return heldHere.has(file);
  let running: boolean;
  try {
    process.kill(holder.pid, 0);
    running = true;
  } catch (error) {
    running = (error as NodeJS.ErrnoException).code === "EPERM";
  }
  // A pid recycled by another process since (a reboot, a busy host) is not the holder. Locks written before the
  // identity was recorded, or where /proc does not tell, are judged by the pid alone.
  const now = running && holder.process ? processIdentity(holder.pid) : undefined;
  return now === undefined ? running : now === holder.process;
}

/** Creates the lock file whole or not at all: written aside, then hard-linked to its name, which fails if taken. */
function tryCreate(file: string, holder: DataDirHolder): boolean {
  const draft = `${file}.${process.pid}`;
  writeFileSync(draft, JSON.stringify(holder), { mode: 0o600 });
  try {
    linkSync(draft, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    unlinkSync(draft);
  }
}

/**
 * Removes the lock of a holder that no longer runs. One process at a time does (the `.takeover` folder is the
 * mutex), and only if the file still names that holder: two processes finding the same stale lock cannot both win.
 */
function removeStale(file: string, stale: DataDirHolder | undefined): void {
  const guard = `${file}.takeover`;
  try {
    mkdirSync(guard);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    if (Date.now() - statSync(guard).mtimeMs > abandonedTakeoverMs) rmdirSync(guard);
    // Another process is taking over: the caller tries again and finds its lock.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    return;
  }
  try {
    const current = readHolder(file);
    if (JSON.stringify(current) === JSON.stringify(stale)) unlinkSync(file);
  } finally {
    rmdirSync(guard);
  }
}

/**
 * Takes `dataDir` for this process until `release` (or the process's exit), or throws `DataDirLockedError` naming the
 * live holder. A lock left by a process that died (kill -9, a crash, a power loss) is taken over, also when its pid
 * now belongs to another process. `socket`: the server's admin socket, for the CLI to find.
 */
export function lockDataDir(dataDir: string, role: LockRole, socket?: string): DataDirLock {
  createDataDir(dataDir);
  const file = join(dataDir, lockFileName);
  const mine: DataDirHolder = {
    pid: process.pid,
    host: hostname(),
    role,
    since: new Date().toISOString(),
    process: processIdentity(process.pid),
    socket,
  };
  for (let attempt = 0; !tryCreate(file, mine); attempt++) {
    const holder = readHolder(file);
    if (holder && isAlive(holder, file)) throw new DataDirLockedError(dataDir, holder);
    if (attempt === 50) throw new Error(`Could not take ${file} over from a process that no longer runs`);
    removeStale(file, holder);
  }
  heldHere.add(file);
  const release = () => {
    heldHere.delete(file);
    if (readHolder(file)?.pid === process.pid) unlinkSync(file);
  };
  process.once("exit", release);
  return {
    release() {
      process.off("exit", release);
      release();
    },
  };
}
