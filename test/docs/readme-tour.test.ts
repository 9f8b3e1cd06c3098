import { execFile } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { codeBlocks, root, tagValue } from "./markdown.ts";

const run = promisify(execFile);
// Inside the repository, so the snippets resolve `@gitbook/api` and `@docs-management-gateway/sdk` like a user's code.
const scratch = join(root, "test-results");

/** The README tour's fenced blocks of a language, in order. */
const tourBlocks = (language: string) =>
  codeBlocks("README.md").filter((block) => block.section === "A five-minute tour" && block.language === language);

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let token: string;

beforeAll(async () => {
  t = await startTestApp();
  server = await listen(t.app);
  const org = await seedOrganization(t.db, "Tour Org");
  token = org.members.admin.token;
  const space = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/spaces`, {
    token,
    body: { title: "Tour Space" },
  });
  const site = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/sites`, {
    token,
    body: { title: "Tour Site" },
  });
  await t.rest("POST", `/orgs/${org.organizationId}/sites/${site.body.id}/sections`, {
    token,
    body: { spaceId: space.body.id, title: "Tour Section" },
  });
});

afterAll(() => server.close());

const local = (code: string) => code.replaceAll("http://localhost:4000", server.url);

describe("the README's five-minute tour", () => {
  it("its curl commands answer with the organizations and the OpenAPI document", async () => {
    const commands = tourBlocks("sh")
      .flatMap((block) => block.code.split("\n"))
      .filter((line) => line.startsWith("curl "))
      .map((line) => local(line.replace(/\s+#.*$/, "")));
    expect(commands).toHaveLength(2);
    const [orgs, openapi] = await Promise.all(
      commands.map((command) => run("sh", ["-c", command], { env: { ...process.env, TOKEN: token } })),
    );
    expect(JSON.parse(orgs?.stdout ?? "").items.map((org: { title: string }) => org.title)).toEqual(["Tour Org"]);
    expect(JSON.parse(openapi?.stdout ?? "").openapi).toMatch(/^3\./);
  });

  it("its TypeScript snippets (official client, typed SDK) run as written, as the ES modules they are labelled", async () => {
    const snippets = tourBlocks("ts");
    expect(snippets.map((snippet) => tagValue(snippet, "file"))).toEqual(["client.mts", "sdk.mts"]);
    mkdirSync(scratch, { recursive: true });
    const outputs = [];
    for (const snippet of snippets) {
      const file = join(scratch, `readme-tour-${tagValue(snippet, "file")}`);
      writeFileSync(file, local(snippet.code));
      const { stdout } = await run(process.execPath, ["--import", "tsx", file], {
        cwd: root,
        env: { ...process.env, TOKEN: token },
      });
      outputs.push(stdout);
    }
    expect(outputs[0]).toContain("Tour Org");
    expect(outputs[1]).toContain("Tour Site");
    expect(outputs[1]).toContain("Tour Section");
  }, 60_000);
});
