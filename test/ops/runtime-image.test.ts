import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

// The runtime image as the docs use it, without Docker (no registry is reachable here): the files the Dockerfile's
// runtime stage copies, assembled from this work tree's build, and the documented commands run in them. The image has
// no scripts/build.mjs and no src/: npm's pre-scripts must not need them. .ci/production-start does the same on a
// clean production install.

const root = fileURLToPath(new URL("../..", import.meta.url));
const run = promisify(execFile);
const image = mkdtempSync(join(tmpdir(), "runtime-image-"));
afterAll(() => rmSync(image, { recursive: true, force: true }));

/** The runtime stage's `COPY --from=build /app/<from> <to>` lines. */
function runtimeCopies(): { from: string; to: string }[] {
  const dockerfile = readFileSync(join(root, "Dockerfile"), "utf8");
  const runtime = dockerfile.slice(dockerfile.lastIndexOf("\nFROM "));
  return [...runtime.matchAll(/^COPY --from=build \/app\/(\S+) (\S+)$/gm)].map((match) => ({
    from: match[1] as string,
    to: (match[2] as string).replace(/^\.\/?/, ""),
  }));
}

function assemble(): void {
  for (const { from, to } of runtimeCopies()) {
    const target = to === "" || to.endsWith("/") ? join(image, to, from.split("/").at(-1) as string) : join(image, to);
    mkdirSync(dirname(target), { recursive: true });
    // node_modules is linked, not copied: the same files, and seconds instead of minutes.
    if (from === "node_modules") symlinkSync(join(root, from), target, "dir");
    else cpSync(join(root, from), target, { recursive: true });
  }
}

/** A documented command (`npm run cli -- ...`) in the assembled image, with the image's environment. */
async function inImage(args: string[]): Promise<unknown> {
  const { stdout } = await run("npm", ["run", ...args], {
    cwd: image,
    env: {
      ...process.env,
      NODE_ENV: "production",
      DATA_DIR: join(image, "data"),
      DATABASE_URL: "",
      SECRETS_KEY: "",
      LOG_LEVEL: "warn",
    },
  });
  // npm's own lines come first; the command's JSON line last.
  return JSON.parse(stdout.trim().split("\n").at(-1) as string);
}

describe("the runtime image's file set", { timeout: 240_000 }, () => {
  it("runs the CLI, the migrations and the seed by the documented commands, with no build step", async () => {
    assemble();
    expect(existsSync(join(image, "dist", "cli.js"))).toBe(true);
    expect(existsSync(join(image, "scripts", "build.mjs"))).toBe(false);
    expect(existsSync(join(image, "src"))).toBe(false);

    expect(await inImage(["cli", "--", "migrate"])).toMatchObject({ migrations: expect.any(Number) });
    const seeded = (await inImage(["seed", "--", "--size", "small"])) as { organization: string; token: string };
    expect(seeded.organization).toMatch(/^org_/);
    const users = (await inImage(["cli", "--", "user", "list"])) as { users: { email: string }[] };
    expect(users.users.length).toBeGreaterThan(0);
  });
});
