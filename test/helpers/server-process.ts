import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Resolves with the exit code (or the signal's name) once the process has ended. */
  exited: Promise<number | string>;
  /** What the process wrote so far (stdout and stderr). */
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | string>;
}

/** The SECRETS_KEY of the server processes: the CLI processes of a test on PostgreSQL need it too. */
export const testProcessSecretsKey = "5e7e7".padEnd(64, "0");

/** A port of 127.0.0.1 nothing listens on right now. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (!address || typeof address === "string") throw new Error("no free port");
  return address.port;
}

/**
 * Starts what `npm start` starts (the bundle dist/main.js, built by the install and by test/global-setup.ts) in its
 * own process and resolves once it listens. `command` starts it otherwise (`["npm", "start"]`: as the docs do), `cwd`
 * elsewhere than the work tree.
 */
export async function startServerProcess(
  env: Record<string, string>,
  {
    command = [process.execPath, join(root, "dist", "main.js")],
    cwd = root,
  }: { command?: readonly string[]; cwd?: string } = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const [executable = process.execPath, ...args] = command;
  const child = spawn(executable, args, {
    cwd,
    env: {
      ...process.env,
      HOST: "127.0.0.1",
      PORT: String(port),
      LOG_LEVEL: "warn",
      // Processes of one test share the key (and leave no key file in the work tree).
      SECRETS_KEY: testProcessSecretsKey,
      // The event loop's delay measures this machine's load, which tests must not depend on (test/helpers/app.ts).
      SHED_EVENT_LOOP_DELAY_MS: "0",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<number | string>((resolve) =>
    child.once("exit", (code, signal) => resolve(code ?? signal ?? "unknown")),
  );
  let output = "";
  const url = `http://127.0.0.1:${port}`;
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("listening on")) resolve();
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    void exited.then((code) => reject(new Error(`server exited (${code}) before listening:\n${output}`)));
  });
  child.stdout?.resume();
  return {
    url,
    child,
    exited,
    output: () => output,
    stop(signal = "SIGTERM") {
      child.kill(signal);
      return exited;
    },
  };
}
