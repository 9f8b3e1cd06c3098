import { DataDirLockedError } from "../db/data-dir-lock.ts";
import { MigrationError } from "../db/migrate.ts";
import { ConfigError } from "../platform/config.ts";
import { DataDirError } from "../platform/data-dir.ts";

/**
 * A start-up that fails ends with one line naming the cause and the setting to change, not a stack trace (shown
 * too with LOG_LEVEL=debug). Each step of the start is named, so an error its code does not explain still says
 * where it happened.
 */
type Step = "data directory" | "listen" | "database" | "admin socket" | "start";

class StartupStepError extends Error {
  constructor(
    readonly step: Step,
    readonly failure: unknown,
  ) {
    super(step);
  }
}

/** Runs one step of the start, so that its failure is reported as that step's. */
export async function startupStep<T>(step: Step, work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw new StartupStepError(step, error);
  }
}

/** What the start needs to know of the configuration to explain a failure (absent when loading it failed). */
interface Settings {
  port: number;
  host: string;
  databaseUrl?: string;
  dataDir: string;
}

interface SystemError {
  code?: unknown;
  path?: unknown;
  message?: unknown;
}

/** An error's own words: PGlite throws plain objects, Node's connection errors may have only a code. */
function describe(error: unknown): string {
  if (typeof error !== "object" || error === null) return String(error);
  const { message, code } = error as SystemError;
  if (typeof message === "string" && message) return message;
  if (typeof code === "string") return code;
  return JSON.stringify(error);
}

const fileSystemCodes = new Set(["EACCES", "EPERM", "EROFS", "ENOSPC", "ENOTDIR", "EISDIR", "ELOOP"]);
const unreachableCodes = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ECONNRESET",
]);

function postgresFailure(error: unknown, url: string): string {
  const { code } = error as SystemError;
  const message = describe(error);
  const target = URL.canParse(url) ? new URL(url) : undefined;
  const database = decodeURIComponent(target?.pathname.slice(1) ?? "") || "postgres";
  const server = target ? `${target.hostname || "localhost"}:${target.port || 5432}` : "its server";
  switch (code) {
    case "3D000":
      return `The database "${database}" named in DATABASE_URL does not exist on ${server}: create it (createdb ${database}) or set DATABASE_URL to an existing database`;
    case "28P01":
    case "28000":
      return `PostgreSQL at ${server} refused the login of DATABASE_URL (${message}): fix the user or password in DATABASE_URL`;
    case "42501":
      return `The role of DATABASE_URL lacks a privilege the start needs (${message}): grant it, or set DATABASE_URL to a role that has it`;
  }
  if ((typeof code === "string" && unreachableCodes.has(code)) || /^Connection terminated/.test(message)) {
    return `Cannot reach PostgreSQL at ${server}, named in DATABASE_URL (${message}): start it, or fix the host and port in DATABASE_URL`;
  }
  if (error instanceof MigrationError) {
    return `${message}: repair the database named in DATABASE_URL, or set DATABASE_URL to another one`;
  }
  return `Cannot use the database of DATABASE_URL (${message}): check DATABASE_URL`;
}

function listenFailure(error: unknown, { port, host }: Settings): string {
  switch ((error as SystemError).code) {
    case "EADDRINUSE":
      return `Port ${port} is already in use on ${host}: set PORT to a free port, or stop what listens on it`;
    case "EACCES":
      return `Not allowed to listen on port ${port} (below 1024 needs privileges): set PORT to a port of 1024 or more`;
    case "EADDRNOTAVAIL":
      return `HOST ${host} is not an address of this machine: set HOST (0.0.0.0: every interface, 127.0.0.1: this machine only)`;
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `HOST ${host} is not a known host name: set HOST to an address of this machine`;
  }
  return `Cannot listen on ${host}:${port} (${describe(error)}): check PORT and HOST`;
}

/** The one line a failed start ends with. */
function startupFailureMessage(error: unknown, settings: Settings | undefined): string {
  const step = error instanceof StartupStepError ? error.step : "start";
  const cause = error instanceof StartupStepError ? error.failure : error;
  if (cause instanceof ConfigError || cause instanceof DataDirLockedError || cause instanceof DataDirError) {
    return cause.message;
  }
  const { code, path } = cause as SystemError;
  if (step === "listen" && settings) return listenFailure(cause, settings);
  if (step === "database" && settings?.databaseUrl) return postgresFailure(cause, settings.databaseUrl);
  if (typeof code === "string" && fileSystemCodes.has(code)) {
    const what = code === "ENOSPC" ? "the disk is full" : `${code} on ${typeof path === "string" ? path : "it"}`;
    const dataDir = settings?.dataDir ?? process.env.DATA_DIR ?? ".data";
    return `DATA_DIR ${dataDir} is not usable (${what}): set DATA_DIR to a directory this user can write, or fix its permissions`;
  }
  if (cause instanceof MigrationError) {
    return `${cause.message}: repair the embedded database in DATA_DIR ${settings?.dataDir}, or set DATA_DIR to another directory`;
  }
  if (step === "database" || step === "admin socket") {
    return `Cannot open the embedded database in DATA_DIR ${settings?.dataDir} (${describe(cause)}): set DATA_DIR to another directory, or DATABASE_URL to use PostgreSQL`;
  }
  return `Failed to start (${step}): ${describe(cause)}`;
}

/** Ends a failed start: the one line on stderr (and the stack with LOG_LEVEL=debug), exit code 1. */
export function exitAfterStartupFailure(error: unknown, settings: Settings | undefined, debug: boolean): never {
  process.stderr.write(`${startupFailureMessage(error, settings)}\n`);
  const cause = error instanceof StartupStepError ? error.failure : error;
  if (debug && !(cause instanceof ConfigError)) {
    process.stderr.write(`${cause instanceof Error ? cause.stack : JSON.stringify(cause)}\n`);
  }
  process.exit(1);
}
