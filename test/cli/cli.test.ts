import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { bootstrapDemoData } from "../../src/app/bootstrap.ts";
import { startTestApp, TestClock } from "../helpers/app.ts";

const run = promisify(execFile);
const dataDir = mkdtempSync(join(tmpdir(), "cli-test-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function cli(...args: string[]) {
  const { stdout } = await run(process.execPath, ["dist/cli.js", ...args], {
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "" },
  });
  return JSON.parse(stdout.trim()) as Record<string, string>;
}

// Each command is a process of its own (`npm run cli` runs the bundle dist/cli.js, built by the global set-up; then
// PGlite and its migrations): give the five in a row room on a busy 2-core machine.
describe("operator CLI", { timeout: 120_000 }, () => {
  it("creates a user, an organization, a membership and a token, each printed as one JSON line", async () => {
    const user = await cli("user", "create", "--email", "ops@cli.test", "--name", "Ops");
    const org = await cli("org", "create", "--title", "CLI Org");
    const member = await cli(
      "member",
      "add",
      "--org",
      org.id as string,
      "--user",
      user.id as string,
      "--role",
      "admin",
    );
    expect(member).toEqual({ organization: org.id, user: user.id, role: "admin" });
    const token = await cli("token", "create", "--user", user.id as string);
    expect(token.token).toMatch(/^dmt_/);
    const revoked = await cli("token", "revoke", "--token-id", token.id as string);
    expect(revoked.revokedAt).toBeTruthy();
    const listed = (await cli("token", "list", "--user", user.id as string)) as unknown as { tokens: object[] };
    expect(listed.tokens).toEqual([
      expect.objectContaining({ id: token.id, userId: user.id, revokedAt: revoked.revokedAt }),
    ]);
    expect(JSON.stringify(listed)).not.toContain(token.token);
    await expect(
      cli("member", "add", "--org", org.id as string, "--user", user.id as string, "--role", "boss"),
    ).rejects.toMatchObject({
      code: 1,
      stderr: `${JSON.stringify({
        error: '--role must be one of admin, create, review, edit, comment, read, guest (not "boss")',
      })}\n`,
    });
  });
});

describe("first start", () => {
  it("creates demo data on an empty database only, with BOOTSTRAP_ADMIN_TOKEN as the admin's token", async () => {
    const t = await startTestApp();
    const value = "automation-token-0123456789";
    const demo = await bootstrapDemoData(t.db, new TestClock(), value);
    expect(demo?.adminToken).toBe(value);
    const orgs = await t.rest<{ items: { title: string }[] }>("GET", "/orgs", { token: value });
    expect(orgs.status).toBe(200);
    expect(orgs.body.items.map((org) => org.title)).toEqual(["Demo Organization"]);
    expect(await bootstrapDemoData(t.db, new TestClock())).toBeNull();
  });
});
