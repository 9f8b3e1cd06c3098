import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/db/database.ts";
import { applyMigrations } from "../../src/db/migrate.ts";
import { freePort } from "../helpers/server-process.ts";

// A start that cannot succeed ends with one line naming the cause and the variable to change, exit code 1, and
// creates nothing: the real bundle (dist/main.js, what `npm start` runs) in a process of its own. That it ends rather
// than retries is bounded by the tests' time-out, not timed: a busy host may take any time to start a process.

const dataDirs: string[] = [];
afterAll(() => {
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

function emptyDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "startup-failure-"));
  dataDirs.push(dir);
  return dir;
}

/** Runs the server to its end: exit code, stdout and stderr. */
async function failedStart(env: Record<string, string>) {
  const child = spawn(process.execPath, ["dist/main.js"], {
    env: {
      ...process.env,
      HOST: "127.0.0.1",
      LOG_LEVEL: "info",
      SECRETS_KEY: "5e7e7".padEnd(64, "0"),
      RUN_JOBS: "false",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const code = await new Promise((resolve) => child.once("exit", resolve));
  return { code, stdout, lines: stderr.trimEnd().split("\n") };
}

describe("a start that cannot succeed", { timeout: 60_000 }, () => {
  it("on a port in use: one line naming PORT, nothing created", async () => {
    const taken = createServer();
    const port = await freePort();
    await new Promise<void>((resolve) => taken.listen(port, "127.0.0.1", resolve));
    try {
      const dataDir = emptyDataDir();
      const result = await failedStart({ PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: "" });
      expect(result.code).toBe(1);
      expect(result.stdout).toBe("");
      expect(result.lines).toEqual([
        `Port ${port} is already in use on 127.0.0.1: set PORT to a free port, or stop what listens on it`,
      ]);
      // It stopped before opening the database: no database, no demo organization whose token nobody saw, no lock.
      expect(readdirSync(dataDir)).toEqual([]);

      const debug = await failedStart({ PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: "", LOG_LEVEL: "debug" });
      expect(debug.lines[0]).toBe(result.lines[0]);
      expect(debug.lines.slice(1).join("\n")).toMatch(/EADDRINUSE[\s\S]*\n\s+at /);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it("on a DATA_DIR that cannot be made, is a file, or is refused: one line naming DATA_DIR, no hang", async () => {
    const file = join(emptyDataDir(), "a-file");
    writeFileSync(file, "");
    const remedy = "set DATA_DIR to a directory this user can write (it is created if missing)";
    for (const [dataDir, line] of [
      // Node's recursive mkdir loops for ever there: the start hung, silent.
      ["/proc/gateway-data", `DATA_DIR /proc/gateway-data cannot be created (ENOENT): ${remedy}`],
      [file, `DATA_DIR ${file} is a file, not a directory: ${remedy}`],
      [
        "/sys/gateway-data",
        expect.stringMatching(/^DATA_DIR \/sys\/gateway-data cannot be created \((EPERM|EROFS|EACCES)\)/),
      ],
    ]) {
      for (const secretsKey of ["", "5e7e7".padEnd(64, "0")]) {
        const result = await failedStart({
          PORT: String(await freePort()),
          DATA_DIR: dataDir,
          SECRETS_KEY: secretsKey,
          DATABASE_URL: "",
        });
        expect(result.code).toBe(1);
        expect(result.lines).toEqual([line]);
      }
    }
  });

  it("on a DATA_DIR that is not a directory: one line naming DATA_DIR", async () => {
    const result = await failedStart({ PORT: String(await freePort()), DATA_DIR: "/dev/null/data", DATABASE_URL: "" });
    expect(result.code).toBe(1);
    expect(result.lines).toEqual([
      expect.stringMatching(/^DATA_DIR \/dev\/null\/data cannot be created \(ENOTDIR\): set DATA_DIR/),
    ]);
  });
});

describe("a start on PostgreSQL without SECRETS_KEY", { timeout: 60_000 }, () => {
  it("is refused with one line naming SECRETS_KEY, before any connection and without a key file", async () => {
    const dataDir = emptyDataDir();
    const result = await failedStart({
      PORT: String(await freePort()),
      DATA_DIR: dataDir,
      // Nothing listens there: the refusal comes first.
      DATABASE_URL: `postgresql://postgres@127.0.0.1:${await freePort()}/gateway`,
      SECRETS_KEY: "",
    });
    expect(result.code).toBe(1);
    expect(result.lines).toEqual([
      "SECRETS_KEY is required with DATABASE_URL: every instance and the CLI must share one key; set it to 64 hex characters (openssl rand -hex 32)",
    ]);
    expect(readdirSync(dataDir)).toEqual([]);
  });
});

describe("a start on the embedded database with DATABASE_REPLICA_URL", { timeout: 60_000 }, () => {
  it("is refused, naming DATABASE_REPLICA_URL and why: PGlite has no replicas", async () => {
    const dataDir = emptyDataDir();
    const result = await failedStart({
      PORT: String(await freePort()),
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      DATABASE_REPLICA_URL: `postgresql://postgres@127.0.0.1:${await freePort()}/gateway`,
    });
    expect(result.code).toBe(1);
    expect(result.lines).toEqual([
      "Invalid configuration:",
      "  DATABASE_REPLICA_URL: read replicas need DATABASE_URL (PostgreSQL); the embedded PGlite has no replicas, unset it",
    ]);
    expect(readdirSync(dataDir)).toEqual([]);
  });
});

describe("a DATA_DIR another process has open (a script, a CLI command without a server)", { timeout: 60_000 }, () => {
  it("refuses the server with one line naming that pid, and the CLI too", async () => {
    const dataDir = emptyDataDir();
    const db = await openDatabase({ kind: "pglite", dataDir });
    try {
      const result = await failedStart({ PORT: String(await freePort()), DATA_DIR: dataDir, DATABASE_URL: "" });
      expect(result.code).toBe(1);
      expect(result.lines).toEqual([
        expect.stringContaining(
          `DATA_DIR ${dataDir} is in use by another process (the CLI, a seed or a script), pid ${process.pid}`,
        ),
      ]);
      const cli = spawnSync(process.execPath, ["dist/cli.js", "user", "list"], {
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "" },
        encoding: "utf8",
      });
      expect(cli.status).toBe(1);
      expect(JSON.parse(cli.stderr).error).toContain(`pid ${process.pid}`);
    } finally {
      await db.close();
    }
  });
});

describe("a start on an embedded database whose migrations do not apply", { timeout: 120_000 }, () => {
  it("ends with one line naming the migration and DATA_DIR, and leaves the data as it was", async () => {
    const dataDir = emptyDataDir();
    const db = await openDatabase({ kind: "pglite", dataDir });
    try {
      await applyMigrations(db);
      await db.withRawConnection((connection) =>
        connection.query(
          `UPDATE "_prisma_migrations" SET checksum = 'edited' WHERE migration_name = (SELECT min(migration_name) FROM "_prisma_migrations")`,
        ),
      );
    } finally {
      await db.close();
    }
    const result = await failedStart({ PORT: String(await freePort()), DATA_DIR: dataDir, DATABASE_URL: "" });
    expect(result.code).toBe(1);
    expect(result.lines).toEqual([
      expect.stringMatching(
        new RegExp(
          `^Migration \\S+ was changed after it was applied \\(checksum mismatch\\): repair the embedded database in DATA_DIR ${dataDir}, or set DATA_DIR`,
        ),
      ),
    ]);
    const reopened = await openDatabase({ kind: "pglite", dataDir });
    try {
      expect(await reopened.withRawConnection((connection) => connection.query(`SELECT 1 FROM "User"`))).toEqual([]);
    } finally {
      await reopened.close();
    }
  });
});

const postgresUrl = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: postgresUrl, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** `postgresUrl` with another user or database. */
function withUrl(change: (url: URL) => void): string {
  const url = new URL(postgresUrl);
  change(url);
  return url.toString();
}

describe.runIf(await postgresReachable())("a start on PostgreSQL that cannot succeed", { timeout: 60_000 }, () => {
  it("on a database that does not exist: one line naming DATABASE_URL, and it is not created", async () => {
    const name = `missing_${randomBytes(6).toString("hex")}`;
    const result = await failedStart({
      PORT: String(await freePort()),
      DATABASE_URL: withUrl((url) => (url.pathname = `/${name}`)),
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.lines).toEqual([
      expect.stringMatching(
        new RegExp(`^The database "${name}" named in DATABASE_URL does not exist on .*createdb ${name}`),
      ),
    ]);
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    try {
      expect((await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name])).rowCount).toBe(0);
    } finally {
      await admin.end();
    }
  });

  it("on a role that does not exist, or a server that does not answer: one line naming DATABASE_URL", async () => {
    const role = await failedStart({
      PORT: String(await freePort()),
      DATABASE_URL: withUrl((url) => (url.username = `nobody_${randomBytes(4).toString("hex")}`)),
    });
    expect(role.lines).toEqual([
      expect.stringMatching(
        /^PostgreSQL at .* refused the login of DATABASE_URL .*: fix the user or password in DATABASE_URL$/,
      ),
    ]);
    const closedPort = await freePort();
    const refused = await failedStart({
      PORT: String(await freePort()),
      DATABASE_URL: withUrl((url) => {
        url.hostname = "127.0.0.1";
        url.port = String(closedPort);
      }),
    });
    expect(refused.lines).toEqual([
      `Cannot reach PostgreSQL at 127.0.0.1:${closedPort}, named in DATABASE_URL (connect ECONNREFUSED 127.0.0.1:${closedPort}): start it, or fix the host and port in DATABASE_URL`,
    ]);
    expect([role.code, refused.code]).toEqual([1, 1]);
  });
});
