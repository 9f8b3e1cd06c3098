import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { codeBlocks, tagValue } from "../docs/markdown.ts";
import { createScratchDatabase, type ScratchPostgresDatabase } from "../helpers/database.ts";
import { type ServerProcess, startServerProcess } from "../helpers/server-process.ts";

// docs/operations.md's backup and restore commands, run as written (their blocks, by name), then the restored
// database served: its data, and its secrets (share links) readable with the key kept beside the backup.

const run = promisify(execFile);
const scratch = mkdtempSync(join(tmpdir(), "backup-restore-"));
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  rmSync(scratch, { recursive: true, force: true });
});

/** Runs the block of docs/operations.md tagged `name=<name>` with `sh`, in the scratch folder, with `env`. */
async function runDocumented(name: string, env: Record<string, string>): Promise<void> {
  const block = codeBlocks("docs/operations.md").find((candidate) => tagValue(candidate, "name") === name);
  if (!block) throw new Error(`no block named ${name} in docs/operations.md`);
  await run("sh", ["-e", "-c", block.code], { cwd: scratch, env: { ...process.env, ...env } });
}

const token = "backup-restore-admin-token-0123456789";
const rest = async <Body>(url: string, method: string, path: string, body?: object) => {
  const response = await fetch(`${url}/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, body: (await response.json()) as Body };
};

/** An organization with a share-link site and one link: data, and a secret encrypted with the key. */
async function addContent(url: string) {
  const org = await rest<{ id: string }>(url, "POST", "/orgs", { title: "Backed up" });
  const site = await rest<{ id: string }>(url, "POST", `/orgs/${org.body.id}/sites`, {
    title: "Shared",
    visibility: "share-link",
  });
  const links = `/orgs/${org.body.id}/sites/${site.body.id}/share-links`;
  const link = await rest<{ urls: { published: string } }>(url, "POST", links, { name: "Partners" });
  expect(link.status).toBe(201);
  return { links, published: link.body.urls.published };
}

async function expectRestored(url: string, content: Awaited<ReturnType<typeof addContent>>) {
  const orgs = await rest<{ items: { title: string }[] }>(url, "GET", "/orgs");
  expect(orgs.body.items.map((org) => org.title)).toContain("Backed up");
  const links = await rest<{ items: { urls: { published: string } }[] }>(url, "GET", content.links);
  expect(links.status).toBe(200);
  // The key decrypted with the restored key (the host and port are the new server's).
  const shareKey = (published: string) => new URL(published).searchParams.get("shareKey");
  expect(links.body.items.map((link) => shareKey(link.urls.published))).toEqual([shareKey(content.published)]);
}

async function started(env: Record<string, string>): Promise<ServerProcess> {
  const server = await startServerProcess({ BOOTSTRAP_ADMIN_TOKEN: token, RUN_JOBS: "false", ...env });
  cleanups.push(() => server.stop());
  return server;
}

describe("backup and restore of the embedded database, as documented", { timeout: 240_000 }, () => {
  it("restores a stopped server's DATA_DIR, its secrets key included, into a new private DATA_DIR", async () => {
    const original = join(scratch, "data");
    const env = { DATABASE_URL: "", SECRETS_KEY: "" };
    const server = await started({ ...env, DATA_DIR: original });
    const content = await addContent(server.url);
    expect(await server.stop()).toBe(0);

    await runDocumented("pglite-backup", { DATA_DIR: original });
    const restored = join(scratch, "restored");
    await runDocumented("pglite-restore", { DATA_DIR: restored });
    expect(statSync(restored).mode & 0o777).toBe(0o700);
    const again = await started({ ...env, DATA_DIR: restored });
    await expectRestored(again.url, content);
  });
});

const serverUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!serverUrl)(
  "backup and restore on PostgreSQL, as documented (skipped without TEST_DATABASE_URL)",
  {
    timeout: 240_000,
  },
  () => {
    it("restores a running instance's database into an empty one, served with the same SECRETS_KEY", async () => {
      const databases: ScratchPostgresDatabase[] = [];
      for (let index = 0; index < 2; index++) {
        const database = await createScratchDatabase(serverUrl as string);
        cleanups.push(() => database.drop());
        databases.push(database);
      }
      const [source, target] = databases as [ScratchPostgresDatabase, ScratchPostgresDatabase];
      const server = await started({ DATABASE_URL: source.url });
      const content = await addContent(server.url);

      await runDocumented("postgres-backup", { DATABASE_URL: source.url });
      await runDocumented("postgres-restore", { DATABASE_URL: target.url });
      expect(await server.stop()).toBe(0);
      const restored = await started({ DATABASE_URL: target.url });
      await expectRestored(restored.url, content);
    });
  },
);
