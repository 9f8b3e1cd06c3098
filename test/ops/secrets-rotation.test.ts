import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rotateSecrets, SecretsRotationError } from "../../src/app/rotate-secrets.ts";
import { type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";

// `npm run cli -- secrets rotate --new-key-file F` re-encrypts every stored secret with a new SECRETS_KEY: an
// instance started with the new key reads them all, and a run that is repeated or given the wrong key loses nothing.

const run = promisify(execFile);
const scratch = mkdtempSync(join(tmpdir(), "secrets-rotation-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const newKeyHex = "7".repeat(64);
const newKey = Buffer.from(newKeyHex, "hex");
type ShareLinks = { items: { id: string; urls: { published: string } }[] };

let t: TestApp;
let org: SeededOrganization;
let links: string;
let published: string;

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "Rotation Org");
  const site = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/sites`, {
    token: org.members.admin.token,
    body: { title: "Shared", visibility: "share-link" },
  });
  links = `/orgs/${org.organizationId}/sites/${site.body.id}/share-links`;
  const link = await t.rest<{ urls: { published: string } }>("POST", links, {
    token: org.members.admin.token,
    body: { name: "Partners" },
  });
  published = link.body.urls.published;
});

describe("rotating the secrets key", () => {
  it("re-encrypts every stored secret, which an instance with the new key reads; a second run changes nothing", async () => {
    const wrongKey = Buffer.from("1".repeat(64), "hex");
    await expect(rotateSecrets(t.db, { from: wrongKey, to: newKey, dataDir: scratch })).rejects.toThrow(
      SecretsRotationError,
    );
    // Nothing was changed by the refused run: the old key still reads every link.
    expect((await t.rest<ShareLinks>("GET", links, { token: org.members.admin.token })).status).toBe(200);

    const result = await rotateSecrets(t.db, { from: t.config.secretsKey, to: newKey, dataDir: scratch });
    expect(result.rotated.shareLinks).toBe(1);
    expect(result.rotated.siteVisitorKeys).toBeGreaterThanOrEqual(1);
    expect(result.keyFileReplaced).toBe(false);

    const rotated = await startTestApp({ db: t.db, env: { SECRETS_KEY: newKeyHex } });
    const listed = await rotated.rest<ShareLinks>("GET", links, { token: org.members.admin.token });
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((link) => link.urls.published)).toEqual([published]);

    const again = await rotateSecrets(t.db, { from: t.config.secretsKey, to: newKey, dataDir: scratch });
    expect(Object.values(again.rotated).every((count) => count === 0)).toBe(true);
    expect(again.alreadyWithNewKey).toBe(
      result.alreadyWithNewKey + Object.values(result.rotated).reduce((a, b) => a + b),
    );
  });
});

describe("npm run cli -- secrets rotate on the embedded database", { timeout: 120_000 }, () => {
  it("replaces DATA_DIR/secrets.key, the key the next start uses", async () => {
    const dataDir = join(scratch, "embedded");
    const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", SECRETS_KEY: "" };
    await run(process.execPath, ["dist/cli.js", "user", "list"], { env });
    const keyFile = join(dataDir, "secrets.key");
    expect(readFileSync(keyFile, "utf8")).toMatch(/^[0-9a-f]{64}$/);
    const newKeyFile = join(scratch, "new.key");
    writeFileSync(newKeyFile, `${newKeyHex}\n`);
    const { stdout } = await run(process.execPath, ["dist/cli.js", "secrets", "rotate", "--new-key-file", newKeyFile], {
      env,
    });
    expect(JSON.parse(stdout)).toMatchObject({ keyFileReplaced: true });
    expect(readFileSync(keyFile, "utf8")).toBe(newKeyHex);
  });
});
