import { mkdtempSync, rmSync } from "node:fs";
import { createConnection, createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { ReportProgress } from "../jobs/queue.ts";
import { describeError, type Logger } from "../platform/logger.ts";
import { type CommandContext, type CommandOptions, commandFailure, runCommand } from "./admin-commands.ts";

/**
 * While a server holds the embedded database, the CLI's commands run in that server (one writer on PGlite): it
 * listens on a Unix socket inside DATA_DIR, readable and writable by its owner only, so being allowed to use it is
 * being allowed to open the database files directly. One connection carries one command, as lines of JSON: the
 * request `{command, options}`, then from the server any number of `{progress}` lines and one `{result}` or `{error}`.
 */
type Reply =
  | { progress: { label: string; done: number; total: number; message?: string } }
  | { result: unknown }
  | { error: { message: string; known: boolean } };

/** Unix socket paths are limited to ~104 bytes (macOS) or 108 (Linux). */
const maxSocketPathBytes = 100;

/**
 * Where the server holding `dataDir` listens for the CLI: in it, or, when that path is too long for a socket, in a
 * directory of its own made in the temporary directory (0700, a random name, removed at exit), never at a name
 * another local user could predict and take first. The server records it in its DATA_DIR lock, where the CLI reads it.
 */
export function adminSocketPath(dataDir: string): string {
  const inside = join(dataDir, "admin.sock");
  if (Buffer.byteLength(inside) <= maxSocketPathBytes) return inside;
  const own = mkdtempSync(join(tmpdir(), "docs-gateway-"));
  process.once("exit", () => rmSync(own, { recursive: true, force: true }));
  return join(own, "admin.sock");
}

function send(socket: Socket, reply: Reply): void {
  if (!socket.destroyed) socket.write(`${JSON.stringify(reply)}\n`);
}

/**
 * Serves the CLI's commands on `path` with this process's database and event bus, until `close`. Commands received
 * before `ready` resolves wait for it.
 */
export async function serveAdminCommands(
  path: string,
  base: Omit<CommandContext, "progress">,
  logger: Logger,
  ready: Promise<void>,
): Promise<{ close(): Promise<void> }> {
  const server = createServer((socket) => {
    // A CLI that went away (Ctrl-C) ends its command's output, not the command: it completes in the server.
    socket.on("error", () => {});
    const lines = createInterface({ input: socket });
    lines.once("line", async (line) => {
      lines.close();
      let request: { command: string; options: CommandOptions };
      try {
        request = JSON.parse(line);
      } catch {
        send(socket, { error: { message: "Malformed admin request", known: true } });
        socket.end();
        return;
      }
      const progress =
        (label: string): ReportProgress =>
        async (done, total, message) =>
          send(socket, { progress: { label, done, total, message } });
      try {
        await ready;
        send(socket, { result: await runCommand(request.command, { ...base, progress }, request.options) });
      } catch (error) {
        const failure = commandFailure(error);
        if (!failure.known) logger.error("admin command failed", { command: request.command, ...describeError(error) });
        send(socket, { error: failure });
      }
      socket.end();
    });
  });
  // The socket of a server that was killed: we hold DATA_DIR now, so nobody listens on it.
  rmSync(path, { force: true });
  // Created owner-only from the start (no window between bind and chmod): the umask covers the bind, which
  // `listen` does synchronously.
  const umask = process.umask(0o177);
  try {
    server.listen(path);
  } finally {
    process.umask(umask);
  }
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
      }),
  };
}

/** The running server refused or dropped the command: `known` as in `commandFailure`. */
export class AdminCommandError extends Error {
  constructor(
    message: string,
    readonly known: boolean,
  ) {
    super(message);
  }
}

/** How long the CLI waits for a server that holds DATA_DIR but is still starting (its socket not yet open). */
const startingServerWaitMs = 30_000;

function connect(path: string): Promise<Socket> {
  const deadline = Date.now() + startingServerWaitMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const socket = createConnection(path);
      socket.once("connect", () => {
        socket.removeAllListeners("error");
        resolve(socket);
      });
      socket.once("error", (error: NodeJS.ErrnoException) => {
        const starting = error.code === "ENOENT" || error.code === "ECONNREFUSED";
        if (starting && Date.now() < deadline) setTimeout(attempt, 100);
        else
          reject(
            new AdminCommandError(`The server holding DATA_DIR does not answer on ${path}: ${error.message}`, true),
          );
      });
    };
    attempt();
  });
}

/** Runs `command` in the server listening on `path`; its progress goes to `progress`. */
export async function sendAdminCommand(
  path: string,
  command: string,
  options: CommandOptions,
  progress: (label: string) => ReportProgress,
): Promise<unknown> {
  const socket = await connect(path);
  const reporters = new Map<string, ReportProgress>();
  socket.write(`${JSON.stringify({ command, options })}\n`);
  return new Promise((resolve, reject) => {
    let settled = false;
    socket.on("error", (error) => {
      if (!settled) reject(new AdminCommandError(`The connection to the server broke: ${error.message}`, false));
      settled = true;
    });
    const lines = createInterface({ input: socket });
    lines.on("line", (line) => {
      const reply = JSON.parse(line) as Reply;
      if ("progress" in reply) {
        const { label, done, total, message } = reply.progress;
        if (!reporters.has(label)) reporters.set(label, progress(label));
        void reporters.get(label)?.(done, total, message);
        return;
      }
      settled = true;
      if ("result" in reply) resolve(reply.result);
      else reject(new AdminCommandError(reply.error.message, reply.error.known));
    });
    lines.on("close", () => {
      if (!settled)
        reject(
          new AdminCommandError(
            "The server closed the connection before the command finished (was it stopped?)",
            false,
          ),
        );
      settled = true;
    });
  });
}
