import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { parse } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { type CodeBlock, codeBlocks, documentationFiles, root, tagValue } from "./markdown.ts";

// Every code block of the documentation that is a command or a program is run here, by its language; the README's
// tour is run by readme-tour.test.ts, which also checks what it prints. `skip-test` in a block's info string marks
// it illustrative (CONTRIBUTING.md, "Documentation").

const run = promisify(execFile);
const scratch = join(root, "test-results");
const scripts = Object.keys(JSON.parse(readFileSync(join(root, "package.json"), "utf8")).scripts);

const commandLanguages = ["sh", "bash", "shell"];
const programLanguages = ["ts", "typescript"];
const notRun = ["text", "json", "yaml", "diff"];

const inReadmeTour = (block: CodeBlock) => block.file === "README.md" && block.section === "A five-minute tour";
const blocks = documentationFiles.flatMap(codeBlocks).filter((block) => !inReadmeTour(block));
const runnable = blocks.filter((block) => !block.tags.includes("skip-test"));
const ofLanguages = (languages: string[]) => runnable.filter((block) => languages.includes(block.language ?? ""));
const where = (block: CodeBlock) => `${block.file}:${block.line}`;

/** Why a shell command is not one this repository runs, or undefined when it is. */
function unknownCommand(command: string): string | undefined {
  const words = command.replace(/^(\w+=\S*\s+)+/, "").split(/\s+/);
  const [program, first, second] = words;
  if (program === "export" || program === "curl") return undefined;
  if (program === "npm") {
    if (["install", "ci", "start", "test"].includes(first ?? "")) return undefined;
    if (first === "run") return scripts.includes(second ?? "") ? undefined : `no npm script "${second}"`;
  }
  if (program === "npx" && first === "tsx") return existsSync(join(root, second ?? "")) ? undefined : `no ${second}`;
  if (program === "npx" && first === "vitest") {
    const path = words[3] ?? "";
    return second === "run" && existsSync(join(root, path)) ? undefined : `no ${path}`;
  }
  if (program === "node") return existsSync(join(root, first ?? "")) ? undefined : `no ${first}`;
  return `"${program}" is not an npm script, a file of the repository or curl (mark the block skip-test?)`;
}

/** The commands of a shell block: continuation lines joined, comments dropped, `&&` chains split. */
function commandsOf(code: string): string[] {
  return code
    .replace(/\\\n\s*/g, " ")
    .split("\n")
    .map((line) => line.replace(/(^|\s+)#.*$/, "").trim())
    .filter(Boolean)
    .flatMap((line) => line.split(/\s*&&\s*/));
}

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let token: string;
let fixtures: Record<string, string>;

beforeAll(async () => {
  t = await startTestApp();
  server = await listen(t.app);
  // The translation example waits for its run: jobs run as a server runs them.
  await t.startJobEngine();
  const org = await seedOrganization(t.db, "Docs Org");
  token = org.members.admin.token;
  const space = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/spaces`, {
    token,
    body: { title: "Docs Space" },
  });
  const site = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/sites`, {
    token,
    body: { title: "Docs Site" },
  });
  fixtures = {
    organizationId: org.organizationId,
    spaceId: space.body.id,
    siteId: site.body.id,
    userId: org.members.admin.id,
  };
});

afterAll(() => server.close());

const local = (code: string) => code.replaceAll("http://localhost:4000", server.url);

describe("the documentation's code blocks", () => {
  it("name their language, and are few to skip", () => {
    expect(blocks.filter((block) => !block.language).map(where)).toEqual([]);
    const known = [...commandLanguages, ...programLanguages, "graphql", ...notRun];
    expect(blocks.filter((block) => !known.includes(block.language ?? "")).map(where)).toEqual([]);
    expect(blocks.filter((block) => block.tags.includes("skip-test")).length).toBeLessThanOrEqual(5);
  });

  it("shell blocks: every command is an npm script, a file of the repository, or a curl that succeeds", async () => {
    const commands = ofLanguages(commandLanguages).flatMap((block) =>
      commandsOf(block.code).map((command) => ({ block, command })),
    );
    expect(commands.length).toBeGreaterThan(5);
    const unknown = commands
      .map(({ block, command }) => ({ at: where(block), reason: unknownCommand(command) }))
      .filter((entry) => entry.reason !== undefined);
    expect(unknown).toEqual([]);
    for (const { block, command } of commands.filter(({ command }) => command.startsWith("curl "))) {
      const { stdout } = await run("sh", ["-c", `${local(command)} --fail --silent --show-error`], {
        env: { ...process.env, TOKEN: token },
      });
      expect(stdout, where(block)).not.toBe("");
    }
  });

  it("an unknown command is refused", () => {
    expect(unknownCommand("npm run no-such-script")).toBe('no npm script "no-such-script"');
    expect(unknownCommand("docker compose up")).toMatch(/"docker" is not an npm script/);
    expect(unknownCommand("TEST_DATABASE_URL=postgresql://x npm test")).toBeUndefined();
    expect(commandsOf("npm run typecheck && npm run lint   # both")).toEqual(["npm run typecheck", "npm run lint"]);
  });

  it("GraphQL blocks run against a seeded organization, without errors unless marked", async () => {
    const documents = ofLanguages(["graphql"]);
    expect(documents.length).toBeGreaterThan(0);
    for (const block of documents) {
      const names = parse(block.code).definitions.flatMap((definition) =>
        definition.kind === "OperationDefinition"
          ? (definition.variableDefinitions ?? []).map((variable) => variable.variable.name.value)
          : [],
      );
      const variables = Object.fromEntries(names.map((name) => [name, fixtures[name]]));
      expect(
        names.filter((name) => fixtures[name] === undefined),
        `${where(block)}: variables the test cannot fill`,
      ).toEqual([]);
      const response = await t.app.fetch(
        new Request("http://localhost/graphql", {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: JSON.stringify({ query: block.code, variables }),
        }),
      );
      const body = (await response.json()) as { data?: unknown; errors?: unknown[] };
      if (block.tags.includes("expect-errors")) expect(body.errors, where(block)).toBeDefined();
      else expect({ at: where(block), errors: body.errors }).toEqual({ at: where(block), errors: undefined });
      expect(body.data, where(block)).toBeTruthy();
    }
  });

  it("TypeScript blocks run as written against a live server", async () => {
    const programs = ofLanguages(programLanguages);
    expect(programs.length).toBeGreaterThan(0);
    mkdirSync(scratch, { recursive: true });
    for (const block of programs) {
      const file = join(scratch, `docs-${tagValue(block, "file") ?? `block-${block.line}.ts`}`);
      writeFileSync(file, local(block.code));
      const { stdout } = await run(process.execPath, ["--import", "tsx", file], {
        cwd: root,
        env: {
          ...process.env,
          TOKEN: token,
          ORGANIZATION_ID: fixtures.organizationId,
          SPACE_ID: fixtures.spaceId,
        },
      });
      expect(stdout, where(block)).toContain(tagValue(block, "prints") ?? "");
      expect(stdout, where(block)).not.toBe("");
    }
  }, 120_000);
});
