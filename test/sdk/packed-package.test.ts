import { execFile } from "node:child_process";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";

const run = promisify(execFile);
const root = join(import.meta.dirname, "..", "..");
const tsc = createRequire(join(root, "package.json")).resolve("typescript/bin/tsc");

let t: TestApp;
let org: SeededOrganization;
let server: { url: string; close(): Promise<void> };
let scratch: string;

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "Packed SDK Org");
  server = await listen(t.app);
  scratch = await mkdtemp(join(tmpdir(), "packed-sdk-"));
}, 120_000);

afterAll(async () => {
  await server.close();
  await rm(scratch, { recursive: true, force: true });
});

/** A user's project: the packed tarball installed from npm's cache (the registry only for what the cache lacks). */
async function installPackedSdk(): Promise<void> {
  // `npm pack` runs the package's prepack: codegen from the committed schema.graphql, then tsc into dist/.
  await run("npm", ["pack", "--silent", "--pack-destination", scratch], { cwd: join(root, "packages", "sdk") });
  const tarball = (await readdir(scratch)).find((file) => file.endsWith(".tgz"));
  if (!tarball) throw new Error("npm pack wrote no tarball");
  await writeFile(join(scratch, "package.json"), JSON.stringify({ name: "sdk-user", private: true, type: "module" }));
  await run(
    "npm",
    ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error", `./${tarball}`, "graphql@16.15.0"],
    { cwd: scratch },
  );
}

describe("the SDK packed as a user installs it (npm pack)", () => {
  it("type-checks a typed call against its .d.ts and runs it, compiled, against a listening server", async () => {
    await installPackedSdk();
    await writeFile(
      join(scratch, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          lib: ["ES2023", "DOM"],
          types: [],
          strict: true,
          outDir: "out",
        },
        include: ["main.ts"],
      }),
    );
    await writeFile(
      join(scratch, "main.ts"),
      [
        'import { createGatewayClient, type OrganizationsQuery } from "@docs-management-gateway/sdk";',
        `const gateway = createGatewayClient(${JSON.stringify(server.url)}, { token: ${JSON.stringify(org.members.admin.token)} });`,
        "const { viewer } = await gateway.Viewer();",
        "const userId: string = viewer.user.id;",
        "const organizations: OrganizationsQuery = await gateway.Organizations({ first: 10 });",
        "// The variables are typed: a call without the required organizationId does not compile (never called).",
        "// @ts-expect-error",
        "export const missingVariable = () => gateway.SiteStructure({});",
        "console.log(JSON.stringify({ userId, titles: (organizations.organizations?.nodes ?? []).map((node) => node.title) }));",
        "",
      ].join("\n"),
    );

    // Fails on any type error, and on the @ts-expect-error above if the package's types were missing or `any`.
    await run(process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: scratch }).catch((error) => {
      throw new Error(`tsc failed in the scratch project:\n${error.stdout}`);
    });
    const { stdout } = await run(process.execPath, [join("out", "main.js")], { cwd: scratch });
    expect(JSON.parse(stdout)).toEqual({ userId: org.members.admin.id, titles: ["Packed SDK Org"] });
  }, 180_000);
});
