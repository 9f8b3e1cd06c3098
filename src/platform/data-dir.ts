import { chmodSync, lstatSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";

/** A DATA_DIR that cannot be used: the start (or the CLI) ends with this one line, naming it and what to change. */
export class DataDirError extends Error {}

const remedy = "set DATA_DIR to a directory this user can write (it is created if missing)";

/**
 * Creates `dir` and its missing parents, owner-only. Not `mkdirSync`'s `recursive`, which on Node 20 loops for ever
 * where a parent exists but refuses new entries with ENOENT (`/proc`): `DATA_DIR=/proc/x` hung the start.
 */
function makeDirectory(dir: string): void {
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return;
    if (code !== "ENOENT" || dirname(dir) === dir) throw error;
    makeDirectory(dirname(dir));
    // The parent exists now: a second refusal is the file system's answer, not a missing parent.
    mkdirSync(dir, { mode: 0o700 });
  }
}

/** Makes sure `dir` is a directory, creating it (0700) if missing, or throws one `DataDirError` line. */
export function createDataDir(dir: string): void {
  try {
    makeDirectory(dir);
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    throw new DataDirError(`DATA_DIR ${dir} cannot be created (${code ?? message}): ${remedy}`);
  }
  let isDirectory: boolean;
  try {
    isDirectory = statSync(dir).isDirectory();
  } catch (error) {
    throw new DataDirError(`DATA_DIR ${dir} cannot be read (${(error as NodeJS.ErrnoException).code}): ${remedy}`);
  }
  if (!isDirectory) throw new DataDirError(`DATA_DIR ${dir} is a file, not a directory: ${remedy}`);
}

/**
 * The embedded database's files (emails, token rows, its WAL and settings) are for this user only: a DATA_DIR other
 * users may enter is closed to them (0700), which closes every file in it whatever its own mode. Returns what to warn
 * of: that it was open (and is closed now), or that it is open and not ours to close; undefined when it was private.
 */
export function closeDataDirToOthers(dir: string): string | undefined {
  const { mode, uid } = statSync(dir);
  if ((mode & 0o077) === 0) return undefined;
  const was = (mode & 0o777).toString(8);
  if (uid !== process.getuid?.()) {
    return `DATA_DIR ${dir} is open to other users (mode ${was}) and owned by another user: make it 0700 (chmod 700 ${dir})`;
  }
  chmodSync(dir, 0o700);
  return `DATA_DIR ${dir} was open to other users (mode ${was}): it is 0700 now`;
}

/** Takes group and other rights off every file and folder under `dir` (a thousand files: milliseconds). */
export function closeFilesToOthers(dir: string): void {
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    try {
      const { mode } = lstatSync(path);
      if (!entry.isSymbolicLink() && (mode & 0o077) !== 0) chmodSync(path, mode & 0o700);
    } catch (error) {
      // Removed meanwhile (PGlite's temporary files): nothing to close.
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
}
