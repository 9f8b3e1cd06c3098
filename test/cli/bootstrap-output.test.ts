import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type ServerProcess, startServerProcess } from "../helpers/server-process.ts";

const dataDirs: string[] = [];
afterAll(() => {
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

/** Starts the server on an empty PGlite database and resolves with its start-up output, once it is complete. */
async function firstStart(env: Record<string, string>): Promise<{ server: ServerProcess; output: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), "bootstrap-output-"));
  dataDirs.push(dataDir);
  const server = await startServerProcess({ DATA_DIR: dataDir, DATABASE_URL: "", RUN_JOBS: "false", ...env });
  // The start-up lines end with the "Try:" line; wait for it rather than for the first chunk.
  const output = await new Promise<string>((resolve) => {
    const check = () => {
      if (!server.output().includes("Try:")) return;
      server.child.stdout?.off("data", check);
      resolve(server.output());
    };
    server.child.stdout?.on("data", check);
    check();
  });
  return { server, output };
}

const orgsStatus = async (url: string, token: string) =>
  (await fetch(`${url}/v1/orgs`, { headers: { authorization: `Bearer ${token}` } })).status;

// Each start is a process of its own (tsx, then PGlite, its migrations and the demo content).
describe("the admin token at first start", { timeout: 120_000 }, () => {
  it("is not printed when it comes from BOOTSTRAP_ADMIN_TOKEN: the output names the variable", async () => {
    const value = "automation-secret-0123456789";
    const { server, output } = await firstStart({ BOOTSTRAP_ADMIN_TOKEN: value });
    try {
      expect(output).not.toContain(value);
      expect(output).toContain("BOOTSTRAP_ADMIN_TOKEN");
      expect(await orgsStatus(server.url, value)).toBe(200);
    } finally {
      await server.stop();
    }
  });

  it("is printed once when the server generated it", async () => {
    const { server, output } = await firstStart({});
    try {
      const printed = /Admin token \(shown once\): (dmt_\S+)/.exec(output)?.[1] ?? "";
      expect(printed).toMatch(/^dmt_/);
      expect(await orgsStatus(server.url, printed)).toBe(200);
    } finally {
      await server.stop();
    }
  });
});
