import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/db/database.ts";

const run = promisify(execFile);
const dataDir = mkdtempSync(join(tmpdir(), "seed-test-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("npm run seed", () => {
  it("creates an organization with demo content through the services, showing progress on stderr", async () => {
    const { stdout, stderr } = await run(process.execPath, ["dist/cli.js", "seed", "--size", "small"], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "" },
    });
    const result = JSON.parse(stdout.trim());
    expect(result).toMatchObject({
      organization: expect.stringMatching(/^org_/),
      token: expect.stringMatching(/^dmt_/),
      created: { members: 3, teams: 1, sites: 1, spaces: 4 },
    });
    const progress = stderr.trim().split("\n");
    expect(progress.length).toBeGreaterThan(2);
    expect(progress[0]).toMatch(/^seed small: +\d+% \(1\/\d+\) member 1 of 3/);
    expect(progress.at(-1)).toMatch(/^seed small: 100% \((\d+)\/\1\)/);

    const db = await openDatabase({ kind: "pglite", dataDir });
    try {
      const where = { organizationId: result.organization };
      expect(await db.prisma.member.count({ where })).toBe(4); // the admin and three demo members
      expect(await db.prisma.siteSection.count({ where: { site: where } })).toBe(2);
      expect(await db.prisma.siteSpace.count({ where: { site: where } })).toBe(4);
    } finally {
      await db.close();
    }
  }, 120_000);

  it("refuses an unknown size with a clear message", async () => {
    await expect(
      run(process.execPath, ["dist/cli.js", "seed", "--size", "huge"], {
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "" },
      }),
    ).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining("Invalid input") });
  }, 60_000);
});
