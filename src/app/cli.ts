import { join } from "node:path";
import { parseArgs } from "node:util";
import { DataDirLockedError, lockDataDir } from "../db/data-dir-lock.ts";
import type { Database } from "../db/database.ts";
import { openConfiguredDatabase } from "../db/open.ts";
import { type EventBus, inProcessEventBus, startEventBus } from "../events/bus.ts";
import type { ReportProgress } from "../jobs/queue.ts";
import { type Config, ConfigError, loadConfig, loadEnvFile } from "../platform/config.ts";
import { DataDirError } from "../platform/data-dir.ts";
import { type CommandOptions, commandFailure, commandNamed, runCommand } from "./admin-commands.ts";
import { AdminCommandError, sendAdminCommand } from "./admin-socket.ts";

/** Operator commands: each prints one JSON line on success, or an error line on stderr and exits non-zero. */
const usage = `Usage: npm run cli -- <command> [options]
  org create --title T                      create an organization (no members yet)
  user create --email E --name N            create a user
  user list                                 list users (id, email)
  member add --org O --user U --role R      make a user a member (role: admin|create|review|edit|comment|read|guest)
  token create --user U [--label L]         create an API token for a user (printed once)
  token list [--user U]                     list tokens (id, user, label, dates; never the token itself)
  token revoke --token-id I                 revoke a token
  secrets rotate --new-key-file F           re-encrypt stored secrets with the key in F (64 hex characters);
                                            then run every instance with it as SECRETS_KEY (docs/operations.md)
  migrate                                   apply pending migrations (as every start does); count and latest
  seed [--size small|large] [--org O --user U]
                                            demo content (members, teams, spaces, sites), progress on stderr;
                                            without --org: a new organization, its admin and a token
While a server runs on the embedded database (DATA_DIR), commands run in that server.`;

/**
 * Progress of long work on stderr (stdout keeps its one JSON line): one updating line on a terminal, else a line
 * per tenth of the work, so logs stay short.
 */
function progressOnStderr(label: string): ReportProgress {
  let lastTenth = -1;
  return async (done, total, message) => {
    const percent = total ? Math.floor((done / total) * 100) : 0;
    const line = `${label}: ${String(percent).padStart(3)}% (${done}/${total}) ${message ?? ""}`;
    if (process.stderr.isTTY) {
      process.stderr.write(`\r${line.padEnd(process.stderr.columns - 1).slice(0, process.stderr.columns - 1)}`);
      if (done === total) process.stderr.write("\n");
    } else if (Math.floor(percent / 10) > lastTenth) {
      lastTenth = Math.floor(percent / 10);
      process.stderr.write(`${line}\n`);
    }
  };
}

/** Runs the command on a database this process opens: PostgreSQL, or PGlite when no server holds DATA_DIR. */
async function runDirectly(db: Database, name: string, options: CommandOptions, config: Config) {
  // On PostgreSQL the bus is its NOTIFY, so running servers drop a revoked token from their caches; on PGlite
  // nobody else has the database open.
  const events: EventBus = db.kind === "postgres" ? await startEventBus(db) : await inProcessEventBus();
  try {
    return await runCommand(name, { db, events, config, progress: progressOnStderr }, options);
  } finally {
    await events.close();
    await db.close();
  }
}

async function run(name: string, options: CommandOptions, config: Config): Promise<unknown> {
  if (config.databaseUrl) return runDirectly(await openConfiguredDatabase(config), name, options, config);
  try {
    const lock = lockDataDir(config.dataDir, "direct");
    return runDirectly(await openConfiguredDatabase(config, lock), name, options, config);
  } catch (error) {
    // One writer on PGlite: the server holding DATA_DIR runs the command on its own database.
    if (!(error instanceof DataDirLockedError) || error.holder.role !== "server") throw error;
    // A server would go on encrypting with the key it started with.
    if (name === "secrets rotate") {
      throw new AdminCommandError(`Stop the server (pid ${error.holder.pid}) before rotating the secrets key`, true);
    }
    return sendAdminCommand(error.holder.socket ?? join(config.dataDir, "admin.sock"), name, options, progressOnStderr);
  }
}

async function main() {
  const { positionals, values } = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: {
      title: { type: "string" },
      email: { type: "string" },
      name: { type: "string" },
      org: { type: "string" },
      user: { type: "string" },
      role: { type: "string" },
      label: { type: "string" },
      "token-id": { type: "string" },
      "new-key-file": { type: "string" },
      size: { type: "string" },
      help: { type: "boolean" },
    },
  });
  const name = commandNamed(positionals);
  if (values.help || !name) {
    process.stderr.write(`${usage}\n`);
    process.exit(values.help ? 0 : 2);
  }
  const options = Object.fromEntries(
    Object.entries(values).map(([key, value]) => [key, value === undefined ? undefined : String(value)]),
  );
  // As the server: what the CLI creates in DATA_DIR (the embedded database's files) is its user's only.
  process.umask(0o077);
  loadEnvFile();
  const result = await run(name, options, loadConfig());
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main().catch((error: unknown) => {
  const { message, known } =
    error instanceof AdminCommandError ||
    error instanceof ConfigError ||
    error instanceof DataDirLockedError ||
    error instanceof DataDirError
      ? { message: error.message, known: !(error instanceof AdminCommandError) || error.known }
      : commandFailure(error);
  process.stderr.write(`${JSON.stringify({ error: message })}\n`);
  if (!known && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
  process.exit(known ? 1 : 3);
});
