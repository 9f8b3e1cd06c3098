import { execFile, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { type ServerProcess, startServerProcess } from "../helpers/server-process.ts";

const run = promisify(execFile);
const dataDir = mkdtempSync(join(tmpdir(), "embedded-server-"));
const env = { DATA_DIR: dataDir, DATABASE_URL: "", RUN_JOBS: "false" };
let server: ServerProcess | undefined;
afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/**
 * `npm run cli -- ...args` (what the README shows: the bundled CLI, dist/cli.js, built by the global set-up), as one
 * process; resolves with its JSON line and its stderr.
 */
async function cli(...args: string[]) {
  const { stdout, stderr } = await run(process.execPath, ["dist/cli.js", ...args], {
    env: { ...process.env, ...env },
  });
  return { result: JSON.parse(stdout.trim()) as Record<string, string>, stderr };
}

async function status(url: string, token: string) {
  const response = await fetch(`${url}/v1/orgs`, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, body: (await response.json()) as { items?: { title: string }[] } };
}

// Every step is a process of its own (tsx, PGlite): room for a busy 2-core machine.
describe("the CLI and the seed while a server runs on the embedded database", { timeout: 240_000 }, () => {
  const made: { userToken?: string; revokedToken?: string; seedToken?: string; orgTitle: string } = {
    orgTitle: "CLI Org",
  };

  it("run in that server: a created token authenticates at once, a revoked one is refused at once", async () => {
    server = await startServerProcess(env);
    const user = (await cli("user", "create", "--email", "ops@embedded.test", "--name", "Ops")).result;
    const org = (await cli("org", "create", "--title", made.orgTitle)).result;
    await cli("member", "add", "--org", org.id as string, "--user", user.id as string, "--role", "admin");
    const token = (await cli("token", "create", "--user", user.id as string, "--label", "laptop")).result;
    made.userToken = token.token;
    const orgs = await status(server.url, token.token as string);
    expect(orgs.status).toBe(200);
    expect(orgs.body.items?.map((item) => item.title)).toEqual([made.orgTitle]);

    const seeded = await cli("seed", "--size", "small");
    expect(seeded.result).toMatchObject({ token: expect.stringMatching(/^dmt_/), created: { spaces: 4, sites: 1 } });
    expect(seeded.stderr).toMatch(/^seed small: 100% \((\d+)\/\1\)/m);
    made.seedToken = seeded.result.token;
    expect((await status(server.url, made.seedToken as string)).status).toBe(200);

    const spare = (await cli("token", "create", "--user", user.id as string)).result;
    expect((await status(server.url, spare.token as string)).status).toBe(200); // now in the server's token cache
    const revoked = await cli("token", "revoke", "--token-id", spare.id as string);
    expect(revoked.result.revokedAt).toBeTruthy();
    // The server evicts the token before it answers the CLI: the very next request is refused.
    expect((await status(server.url, spare.token as string)).status).toBe(401);
    made.revokedToken = spare.token;
    const users = (await cli("user", "list")).result as unknown as { users: { email: string }[] };
    expect(users.users.map((u) => u.email)).toContain("ops@embedded.test");
  });

  it("refuses a second server on the same DATA_DIR at once, naming the pid that holds it", async () => {
    const second = spawn(process.execPath, ["dist/main.js"], {
      env: { ...process.env, ...env, PORT: "0", SECRETS_KEY: "5e7e7".padEnd(64, "0") },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    second.stdout.on("data", (chunk) => (stdout += chunk));
    second.stderr.on("data", (chunk) => (stderr += chunk));
    // A second server that did start (the fault this guards against) is stopped as soon as it listens.
    second.stdout.on("data", () => stdout.includes("listening on") && second.kill());
    const code = await new Promise((resolve) => second.once("exit", resolve));
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr.trim().split("\n")).toEqual([
      expect.stringContaining(`DATA_DIR ${dataDir} is in use by a server (npm start), pid ${server?.child.pid}`),
    ]);
    // The first server still serves.
    expect((await status(server?.url as string, made.userToken as string)).status).toBe(200);
  });

  it("keeps what the commands did across a restart, and releases DATA_DIR when it stops", async () => {
    await server?.stop();
    expect(existsSync(join(dataDir, "gateway.lock"))).toBe(false);
    server = await startServerProcess(env);
    const orgs = await status(server.url, made.userToken as string);
    expect(orgs.status).toBe(200);
    expect(orgs.body.items?.map((item) => item.title)).toEqual([made.orgTitle]);
    expect((await status(server.url, made.seedToken as string)).status).toBe(200);
    expect((await status(server.url, made.revokedToken as string)).status).toBe(401);
  });

  it("takes over a lock left by a process that no longer runs (kill -9, a crash)", async () => {
    await server?.stop();
    const gone = spawn(process.execPath, ["-e", ""]);
    const pid = gone.pid as number;
    await new Promise((resolve) => gone.once("exit", resolve));
    const since = new Date().toISOString();
    writeFileSync(join(dataDir, "gateway.lock"), JSON.stringify({ pid, host: hostname(), role: "server", since }));
    server = await startServerProcess(env);
    expect((await status(server.url, made.userToken as string)).status).toBe(200);
  });
});
