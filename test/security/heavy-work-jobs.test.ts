import { describe, expect, it } from "vitest";
import { baseUrl, type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { eventually } from "../helpers/eventually.ts";
import { commitFiles, createBareRepository, repositoryRoot } from "../helpers/git-repo.ts";
import { refChainSpec } from "../helpers/hostile-inputs.ts";

/*
 * Worker threads start slowly from the TypeScript sources on a loaded machine (10-15 s seen for the first spec),
 * hence the tests' long timeouts; nothing here is timed. The heavy work of background jobs runs on worker threads under a deadline that terminates them: a spec whose
 * `$ref`s expand exponentially ends as a processing error its owner reads, and the server answers meanwhile. Before,
 * the dereferencing ran on the event loop: ~1.4 s at 16 levels, 25-30 s at 21, hours at 30, nothing answered.
 */

type SpecBody = {
  processingState: string;
  lastVersion?: string;
  lastProcessErrorCode?: string;
  lastProcessedErrors: { message: string; code?: string }[];
};

async function createSpec(t: TestApp, org: SeededOrganization, slug: string, text: string) {
  const created = await t.rest("POST", `/orgs/${org.organizationId}/openapi`, {
    token: org.members.admin.token,
    body: { slug, source: { text } },
  });
  expect(created.status).toBe(201);
}

async function readSpec(t: TestApp, org: SeededOrganization, slug: string) {
  const read = await t.rest<SpecBody>("GET", `/orgs/${org.organizationId}/openapi/${slug}`, {
    token: org.members.read.token,
  });
  expect(read.status).toBe(200);
  return read.body;
}

async function processingJobs(t: TestApp) {
  return t.db.prisma.job.findMany({ where: { type: "process-openapi-spec" }, orderBy: { createdAt: "asc" } });
}

describe("OpenAPI spec processing", () => {
  it("records a 30-level $ref chain as a processing error over the expanded-size bound, not retried", async () => {
    const t = await startTestApp();
    const org = await seedOrganization(t.db, "Ref chain");
    const text = refChainSpec(30);
    expect(text.length).toBeLessThan(4000);
    await createSpec(t, org, "chain", text);
    await t.runJobs();

    const spec = await readSpec(t, org, "chain");
    expect(spec.processingState).toBe("complete");
    expect(spec.lastVersion).toBeUndefined();
    expect(spec.lastProcessErrorCode).toBe("PARSE_ERROR");
    expect(spec.lastProcessedErrors).toEqual([
      {
        code: "TOO_LARGE",
        message: expect.stringContaining(
          `more than ${t.config.specMaxExpandedBytes} bytes once its $refs are expanded`,
        ),
      },
    ]);
    const [job] = await processingJobs(t);
    expect(job).toMatchObject({ status: "done", attempts: 1 });

    // An ordinary spec of the same organization still processes.
    await createSpec(t, org, "small", refChainSpec(3));
    await t.runJobs();
    expect(await readSpec(t, org, "small")).toMatchObject({ processingState: "complete", lastProcessedErrors: [] });
  }, 120_000);

  it("terminates processing past its deadline, answering other requests meanwhile, and records it", async () => {
    // No bound on the expanded size: the dereferencing runs (for hours) until the deadline ends its thread.
    const t = await startTestApp({ env: { SPEC_MAX_EXPANDED_BYTES: String(2 ** 50), JOB_WORK_TIMEOUT_MS: "5000" } });
    const org = await seedOrganization(t.db, "Spec deadline");
    await createSpec(t, org, "chain", refChainSpec(30));
    let finished = false;
    const run = t.runJobs().then((count) => {
      finished = true;
      return count;
    });
    const states = await eventually(async () => (await readSpec(t, org, "chain")).processingState, "progress", 200);
    expect(states.at(-1)).toBe("progress");

    const live = await t.app.fetch(new Request(`${baseUrl}/livez`));
    expect(live.status).toBe(200);
    const graphql = await t.app.fetch(
      new Request(`${baseUrl}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${org.members.read.token}` },
        body: JSON.stringify({
          query: "query Org($id: ID!) { organization(id: $id) { title } }",
          variables: { id: org.organizationId },
        }),
      }),
    );
    expect(await graphql.json()).toMatchObject({ data: { organization: { title: "Spec deadline" } } });
    expect(finished).toBe(false);

    expect(await run).toBe(1);
    const spec = await readSpec(t, org, "chain");
    expect(spec).toMatchObject({ processingState: "complete", lastProcessErrorCode: "PARSE_ERROR" });
    expect(spec.lastProcessedErrors).toEqual([
      { code: "PROCESSING_TIMEOUT", message: expect.stringContaining("more than the 5000 ms allowed") },
    ]);
    const [job] = await processingJobs(t);
    expect(job).toMatchObject({ status: "done", attempts: 1 });
  }, 120_000);
});

/** 40 KB of nested list items with links: ~1.5 s to parse each on the development machine. */
function nestedListPage(page: number) {
  const lines: string[] = [];
  for (let item = 0; lines.join("\n").length < 40_000; item++) {
    lines.push(`${"  ".repeat(item % 8)}- item ${page}.${item} [link](https://example.com/${page}/${item}) words`);
  }
  return `${lines.join("\n")}\n`;
}

describe("translations", () => {
  // Before, the links of the translated pages were parsed inside the write's transaction (~9 s for these pages):
  // past Prisma's 5 s limit on PostgreSQL the job failed, and its retries again (PGlite's transactions have no
  // limit).
  it("translates 6 pages of 40 KB: the markdown parsed on a worker before the transaction, links kept", async () => {
    // The page writes convert the same markdown (for their links) within this budget, on a loaded machine.
    const t = await startTestApp({ env: { CONVERSION_TIMEOUT_MS: "120000" } });
    const org = await seedOrganization(t.db, "Large translation");
    const admin = org.members.admin.token;
    const space = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/spaces`, {
      token: admin,
      body: { title: "Large pages" },
    });
    const pages = Array.from({ length: 6 }, (_, page) => ({ title: `Page ${page}`, markdown: nestedListPage(page) }));
    const written = await t.rest("POST", `/spaces/${space.body.id}/content`, {
      token: admin,
      body: { changes: pages.map((page) => ({ type: "insert", page })) },
    });
    expect(written.status).toBe(200);
    const created = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/translations`, {
      token: admin,
      body: { source: { space: space.body.id, language: "en" }, language: "fr" },
    });
    expect(created.status).toBe(201);
    const run = await t.rest("POST", `/orgs/${org.organizationId}/translations/${created.body.id}/run`, {
      token: admin,
    });
    expect(run.status).toBe(204);
    await t.runJobs();

    const done = await t.rest<{ status: string; failureReason?: string; result?: { space: string } }>(
      "GET",
      `/orgs/${org.organizationId}/translations/${created.body.id}`,
      { token: org.members.read.token },
    );
    expect(done.body).toMatchObject({ status: "completed" });
    expect(done.body.failureReason).toBeUndefined();
    const result = await t.rest<{ pages: { title: string; markdown?: string }[] }>(
      "GET",
      `/spaces/${done.body.result?.space}/content/pages`,
      { token: admin },
    );
    expect(result.body.pages).toHaveLength(6);
    expect(result.body.pages[0]?.markdown).toContain("[ĺîñķ](https://example.com/0/1)");
    // Every link of every translated page is stored with its page version, as a write stores them.
    const linkRows = await t.db.prisma.pageVersionLink.count({
      where: { pageVersion: { spaceId: done.body.result?.space } },
    });
    const expectedLinks = pages.reduce((sum, page) => sum + (page.markdown.match(/\]\(/g)?.length ?? 0), 0);
    expect(linkRows).toBe(expectedLinks);

    // A copy of the source takes its pages' stored links (its transaction no longer parses them again).
    const copy = await t.rest<{ id: string }>("POST", `/spaces/${space.body.id}/duplicate`, { token: admin });
    expect(copy.status).toBe(201);
    const copiedLinks = await t.db.prisma.pageVersionLink.count({ where: { pageVersion: { spaceId: copy.body.id } } });
    expect(copiedLinks).toBe(expectedLinks);
  }, 300_000);
});

describe("Git imports", () => {
  it("imports 6 pages of 40 KB with their links parsed on a worker; a SUMMARY.md past the deadline fails once", async () => {
    const t = await startTestApp({ env: { CONVERSION_TIMEOUT_MS: "120000" } });
    const org = await seedOrganization(t.db, "Large import");
    const admin = org.members.admin.token;
    const root = repositoryRoot();
    const importInto = async (name: string, files: Record<string, string>) => {
      const bare = createBareRepository(root, name);
      commitFiles(bare, "main", files, "Content");
      const space = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/spaces`, {
        token: admin,
        body: { title: name },
      });
      const started = await t.rest("POST", `/spaces/${space.body.id}/git/import`, {
        token: admin,
        body: { url: `file://${bare}`, ref: "refs/heads/main" },
      });
      expect(started.status).toBe(204);
      return space.body.id;
    };
    const operation = async (spaceId: string) =>
      (
        await t.rest<{ operation: { state: string; error?: string } }>("GET", `/spaces/${spaceId}/git/info`, {
          token: org.members.read.token,
        })
      ).body.operation;

    const pages = Array.from({ length: 6 }, (_, page) => nestedListPage(page));
    const files = Object.fromEntries(
      pages.map((markdown, page) => [`page-${page}.md`, `# Page ${page}\n\n${markdown}`]),
    );
    const large = await importInto("large", {
      ...files,
      "SUMMARY.md": `# Table of contents\n\n${pages.map((_, page) => `* [Page ${page}](page-${page}.md)`).join("\n")}\n`,
    });
    await t.runJobs();
    expect(await operation(large)).toMatchObject({ state: "success" });
    const linkRows = await t.db.prisma.pageVersionLink.count({ where: { pageVersion: { spaceId: large } } });
    expect(linkRows).toBe(pages.reduce((sum, page) => sum + (page.match(/\]\(/g)?.length ?? 0), 0));

    // 99 KB of link openers that never close: seconds of parsing, far past a 10 ms deadline.
    const stuck = await importInto("stuck", { "SUMMARY.md": "[a](b ".repeat(16_500), "README.md": "# Hi\n" });
    await t.runJobs({ ...t.config, jobWorkTimeoutMs: 10 });
    expect(await operation(stuck)).toMatchObject({
      state: "failure",
      error: expect.stringContaining("more than the 10 ms allowed (JOB_WORK_TIMEOUT_MS)"),
    });
    const jobs = await t.db.prisma.job.findMany({ where: { type: "git-import" }, orderBy: { createdAt: "asc" } });
    expect(jobs.map((job) => [job.status, job.attempts])).toEqual([
      ["done", 1],
      ["done", 1],
    ]);
  }, 300_000);
});
