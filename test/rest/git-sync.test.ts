import type { GitBookAPI } from "@gitbook/api";
import { beforeAll, describe, expect, it } from "vitest";
import { processGitExport, processGitImport } from "../../src/modules/git-sync/git-sync.service.ts";
import { type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { expectMatchesSpec } from "../helpers/contract.ts";
import {
  commitCount,
  commitFiles,
  createBareRepository,
  readBranch,
  repositoryRoot,
  serveRepositories,
} from "../helpers/git-repo.ts";
import { startOfficialClient } from "../helpers/official-client.ts";

let t: TestApp;
let org: SeededOrganization;
let api: GitBookAPI;
let root: string;
let server: Awaited<ReturnType<typeof serveRepositories>>;
const gitUser = { name: "sync-bot", password: "pa55-w0rd-git-sync" };

type PageBody = { id: string; title: string; path: string; type: string; git?: { oid: string; path: string } };
type RevisionBody = {
  id: string;
  git?: { oid: string; message: string; ref: string; url?: string; createdByService: boolean };
  pages: (PageBody & { pages: PageBody[] })[];
  files: { name: string; contentType: string; size: number }[];
};
type GitInfo = {
  repoName: string;
  url: string;
  operation: { state: string; direction: string; error?: string; skipped: boolean; commit?: string };
};

beforeAll(async () => {
  ({ t, org, api } = await startOfficialClient("Git Sync Org"));
  root = repositoryRoot();
  server = await serveRepositories(root, gitUser);
  // The job engine's start (its queue, its workers) is the file's set-up, not the first test's work.
  await t.runJobs();
});

const admin = () => org.members.admin.token;

async function newSpace(title: string): Promise<string> {
  const created = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/spaces`, {
    token: admin(),
    body: { title },
  });
  return created.body.id;
}

async function content(spaceId: string): Promise<RevisionBody> {
  const response = await t.rest<RevisionBody>("GET", `/spaces/${spaceId}/content`, { token: admin() });
  expect(response.status).toBe(200);
  return response.body;
}

async function gitInfo(spaceId: string): Promise<GitInfo> {
  const response = await t.rest<GitInfo>("GET", `/spaces/${spaceId}/git/info`, { token: org.members.read.token });
  expect(response.status).toBe(200);
  return response.body;
}

async function post(spaceId: string, direction: "import" | "export", body: Record<string, unknown>) {
  const response = await t.rest("POST", `/spaces/${spaceId}/git/${direction}`, { token: admin(), body });
  expect(response.status).toBe(204);
}

const runQueued = () => t.runJobs();

const docsRepository = {
  "docs/.gitbook.yaml": "root: ./content/\nstructure:\n  readme: intro.md\n  summary: toc.md\n",
  "docs/content/intro.md": "# Welcome\n\nStart with [the guide](guide/README.md).\n",
  "docs/content/toc.md": [
    "# Table of contents",
    "",
    "* [Welcome](intro.md)",
    "* [Guide](guide/README.md)",
    "  * [Install](guide/install.md)",
    "",
    "## Reference",
    "",
    "* [API](reference/api.md)",
    "* [Website](https://example.com/)",
    "",
  ].join("\n"),
  "docs/content/guide/README.md": "---\ndescription: How to use it\n---\n\n# Guide\n\nRead [install](install.md).\n",
  "docs/content/guide/install.md": "# Install\n\n![Logo](../.gitbook/assets/logo.png)\n",
  "docs/content/reference/api.md": "# API\n\nEndpoints.\n",
  "docs/content/.gitbook/assets/logo.png": Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]),
  "src/index.ts": "export {};\n",
};

describe("Git import", () => {
  it("imports the layout of a file:// repository with .gitbook.yaml under repoProjectDirectory", async () => {
    const bare = createBareRepository(root, "docs");
    const oid = commitFiles(bare, "main", docsRepository, "Initial docs");
    const spaceId = await newSpace("Imported");
    const started = await api.spaces.importGitRepository(spaceId, {
      url: `file://${bare}`,
      ref: "refs/heads/main",
      repoProjectDirectory: "docs",
      repoCommitURL: "https://git.example/docs/commit/",
    });
    expect(started.status).toBe(204);
    expect((await gitInfo(spaceId)).operation.state).toBe("running");
    expect(await runQueued()).toBeGreaterThanOrEqual(1);

    const revision = await content(spaceId);
    expect(revision.git).toEqual({
      oid,
      message: "Initial docs",
      ref: "refs/heads/main",
      url: `https://git.example/docs/commit/${oid}`,
      createdByService: false,
    });
    expect(revision.pages.map((page) => [page.title, page.type, page.pages.map((child) => child.title)])).toEqual([
      ["Welcome", "document", []],
      ["Guide", "document", ["Install"]],
      ["Reference", "group", ["API", "Website"]],
    ]);
    const guide = revision.pages[1] as PageBody & { pages: PageBody[] };
    expect(guide.git?.path).toBe("docs/content/guide/README.md");
    const withoutMetadata = await t.rest<{ git?: unknown; pages: { git?: unknown }[] }>(
      "GET",
      `/spaces/${spaceId}/content`,
      { token: admin(), query: { metadata: "false" } },
    );
    expect(withoutMetadata.body.git).toBeUndefined();
    expect(withoutMetadata.body.pages.map((each) => each.git)).toEqual([undefined, undefined, undefined]);
    expect(guide.git?.oid).toMatch(/^[0-9a-f]{40}$/);
    const page = await t.rest<{ markdown: string; description: string }>(
      "GET",
      `/spaces/${spaceId}/content/page/${guide.id}`,
      { token: admin(), query: { format: "markdown" } },
    );
    expect(page.body.description).toBe("How to use it");
    expect(page.body.markdown).toContain("Read [install](install.md).");
    expect(page.body.markdown).not.toContain("# Guide");
    expect(revision.files).toEqual([expect.objectContaining({ name: "logo.png", contentType: "image/png", size: 7 })]);

    const info = await api.spaces.getSpaceGitInfo(spaceId);
    expectMatchesSpec("getSpaceGitInfo", 200, info.data);
    expect(info.data).toMatchObject({
      repoName: expect.stringMatching(/\/docs$/),
      url: `file://${bare}`,
      integration: "git",
    });
    expect((info.data as unknown as GitInfo).operation).toMatchObject({ state: "success", commit: oid });
  });

  it("a re-run of a finished import (a crash before the job was marked done) writes no second revision", async () => {
    const bare = createBareRepository(root, "rerun");
    commitFiles(bare, "main", { "README.md": "# Hello\n\nWorld.\n" }, "One page");
    const spaceId = await newSpace("Rerun");
    await post(spaceId, "import", { url: `file://${bare}`, ref: "refs/heads/main" });
    const job = await t.db.prisma.job.findFirstOrThrow({ where: { type: "git-import", status: "pending" } });
    await processGitImport(t.db.prisma, job, t.clock.now(), t.config, new AbortController().signal);
    const revisions = await t.db.prisma.revision.count({ where: { spaceId } });
    // The runner claims it again as if the first run had died before finishing the job.
    await runQueued();
    expect(await t.db.prisma.revision.count({ where: { spaceId } })).toBe(revisions);
    expect((await t.db.prisma.job.findUniqueOrThrow({ where: { id: job.id } })).status).toBe("done");
    expect((await content(spaceId)).pages.map((page) => page.title)).toEqual(["Hello"]);
  });

  it("standalone imports make a revision that does not become the space's content", async () => {
    const bare = createBareRepository(root, "standalone");
    commitFiles(bare, "main", { "README.md": "# Alone\n" }, "Standalone");
    const spaceId = await newSpace("Standalone");
    const before = (await content(spaceId)).id;
    await post(spaceId, "import", { url: `file://${bare}`, ref: "refs/heads/main", standalone: true });
    await runQueued();
    expect((await content(spaceId)).id).toBe(before);
    const info = await gitInfo(spaceId);
    const revisionId = (info.operation as { revision?: string }).revision as string;
    const pages = await t.db.prisma.revisionPage.findMany({ where: { revisionId }, include: { version: true } });
    expect(pages.map((page) => page.version.title)).toEqual(["Alone"]);
    expect(await t.db.prisma.revision.findUniqueOrThrow({ where: { id: revisionId } })).toMatchObject({
      spaceId,
      git: expect.objectContaining({ message: "Standalone" }),
    });
  });

  it("skips an operation older than the last applied one unless forced", async () => {
    const bare = createBareRepository(root, "ordered");
    commitFiles(bare, "main", { "README.md": "# First\n" }, "First");
    const spaceId = await newSpace("Ordered");
    const url = `file://${bare}`;
    await post(spaceId, "import", { url, ref: "refs/heads/main", timestamp: "2026-01-01T10:00:00Z" });
    await runQueued();
    commitFiles(bare, "main", { "README.md": "# Second\n" }, "Second");
    await post(spaceId, "import", { url, ref: "refs/heads/main", timestamp: "2026-01-01T09:00:00Z" });
    await runQueued();
    expect((await gitInfo(spaceId)).operation).toMatchObject({ state: "success", skipped: true });
    expect((await content(spaceId)).pages.map((page) => page.title)).toEqual(["First"]);
    await post(spaceId, "import", { url, ref: "refs/heads/main", timestamp: "2026-01-01T09:00:00Z", force: true });
    await runQueued();
    expect((await gitInfo(spaceId)).operation).toMatchObject({ state: "success", skipped: false });
    expect((await content(spaceId)).pages.map((page) => page.title)).toEqual(["Second"]);
  });

  it("a missing branch fails visibly on the space's Git info", async () => {
    const bare = createBareRepository(root, "empty");
    const spaceId = await newSpace("Failing");
    await post(spaceId, "import", { url: `file://${bare}`, ref: "refs/heads/nowhere" });
    await runQueued();
    const info = await gitInfo(spaceId);
    expect(info.operation.state).toBe("failure");
    expect(info.operation.error).toContain("git fetch failed");
  });
});

describe("Git export", () => {
  it("writes one commit with commitMessage on a new branch over HTTP with basic auth", async () => {
    const source = createBareRepository(root, "export-source");
    commitFiles(source, "main", docsRepository, "Docs");
    const target = createBareRepository(root, "export-target");
    commitFiles(target, "docs", { "docs/.gitbook.yaml": docsRepository["docs/.gitbook.yaml"] }, "Start");
    const spaceId = await newSpace("Exported");
    await post(spaceId, "import", { url: `file://${source}`, ref: "refs/heads/main", repoProjectDirectory: "docs" });
    await runQueued();
    const started = await api.spaces.exportToGitRepository(spaceId, {
      url: server.url("export-target", gitUser),
      ref: "refs/heads/docs",
      commitMessage: "Export from the gateway",
      repoProjectDirectory: "docs",
    });
    expect(started.status).toBe(204);
    await runQueued();
    const info = await gitInfo(spaceId);
    expect(info.operation).toMatchObject({ state: "success", direction: "export" });
    expect(info.url).toBe(server.url("export-target"));
    const branch = readBranch(target, "docs");
    expect(branch.message).toBe("Export from the gateway");
    expect(info.operation.commit).toBe(branch.oid);
    expect(commitCount(target, "docs")).toBe(2);
    expect([...branch.files.keys()].sort()).toEqual(
      [
        "docs/.gitbook.yaml",
        "docs/content/.gitbook/assets/logo.png",
        "docs/content/guide/README.md",
        "docs/content/guide/install.md",
        "docs/content/intro.md",
        "docs/content/reference/api.md",
        "docs/content/toc.md",
      ].sort(),
    );
    expect(branch.files.get("docs/content/toc.md")?.toString()).toBe(docsRepository["docs/content/toc.md"]);
    expect(branch.files.get("docs/content/guide/README.md")?.toString()).toBe(
      docsRepository["docs/content/guide/README.md"],
    );
    expect(server.authorizations.every((header) => header !== undefined)).toBe(true);
  });
});

describe("Git export guards", () => {
  async function exportedSpace(name: string) {
    const target = createBareRepository(root, name);
    commitFiles(target, "main", { "README.md": "# Remote start\n" }, "Start");
    const spaceId = await newSpace(name);
    const url = server.url(name, gitUser);
    await post(spaceId, "import", { url, ref: "refs/heads/main" });
    await runQueued();
    await t.rest("POST", `/spaces/${spaceId}/content`, {
      token: admin(),
      body: { changes: [{ type: "insert", page: { title: "From the gateway", markdown: "New page.\n" } }] },
    });
    return { target, spaceId, url };
  }

  it("refuses to export over a branch that moved past the last synchronized commit, unless forced", async () => {
    const { target, spaceId, url } = await exportedSpace("moved");
    const moved = commitFiles(target, "main", { "other.md": "# Other\n" }, "Someone else");
    await post(spaceId, "export", { url, ref: "refs/heads/main", commitMessage: "Gateway edits" });
    await runQueued();
    const info = await gitInfo(spaceId);
    expect(info.operation.state).toBe("failure");
    expect(info.operation.error).toContain(`moved to ${moved}`);
    expect(readBranch(target, "main").oid).toBe(moved);

    await post(spaceId, "export", { url, ref: "refs/heads/main", commitMessage: "Gateway edits", force: true });
    await runQueued();
    expect((await gitInfo(spaceId)).operation.state).toBe("success");
    const branch = readBranch(target, "main");
    expect(branch.message).toBe("Gateway edits");
    expect(branch.files.get("from-the-gateway.md")?.toString()).toBe("# From the gateway\n\nNew page.\n");
    expect(branch.files.has("other.md")).toBe(false);
  });

  it("a re-run of an export whose commit landed (a crash before it was recorded) makes no second commit", async () => {
    const { target, spaceId, url } = await exportedSpace("landed");
    await post(spaceId, "export", { url, ref: "refs/heads/main", commitMessage: "Once" });
    const job = await t.db.prisma.job.findFirstOrThrow({
      where: { type: "git-export", status: "pending", payload: { path: ["spaceId"], equals: spaceId } },
    });
    const before = await t.db.prisma.gitSync.findUniqueOrThrow({ where: { spaceId } });
    await processGitExport(t.db.prisma, job, t.clock.now(), t.config);
    const commits = commitCount(target, "main");
    // The crash: the push landed but neither the sync state nor the job were recorded.
    await t.db.prisma.gitSync.update({
      where: { spaceId },
      data: { appliedJobId: before.appliedJobId, commitOid: before.commitOid, operationState: "running" },
    });
    await runQueued();
    expect(commitCount(target, "main")).toBe(commits);
    expect((await gitInfo(spaceId)).operation).toMatchObject({
      state: "success",
      commit: readBranch(target, "main").oid,
    });
  });

  it("a wrong password fails visibly, and no answer, job or row holds the password", async () => {
    const spaceId = await newSpace("Wrong password");
    const wrong = { name: gitUser.name, password: "n0t-the-right-one-42" };
    await post(spaceId, "import", { url: server.url("docs", wrong), ref: "refs/heads/main" });
    await runQueued();
    const info = await gitInfo(spaceId);
    expect(info.operation.state).toBe("failure");
    expect(info.operation.error).toMatch(/git fetch failed/);
    const job = await t.db.prisma.job.findFirstOrThrow({
      where: { type: "git-import" },
      orderBy: { createdAt: "desc" },
    });
    const stored = JSON.stringify([info, job, await t.db.prisma.gitSync.findMany()]);
    expect(stored).not.toContain(wrong.password);
    expect(stored).not.toContain(gitUser.password);
    expect(stored).toContain(server.url("docs"));
  });
});

describe("Git remotes on private addresses", () => {
  it("are refused unless the operator opened the host (GIT_ALLOW_HOSTS), and the refusal shows on Git info", async () => {
    const spaceId = await newSpace("Private address");
    const requests = server.authorizations.length;
    await post(spaceId, "import", { url: server.url("docs", gitUser), ref: "refs/heads/main" });
    await t.runJobs({ ...t.config, gitAllowHosts: [] });
    const info = await gitInfo(spaceId);
    expect(info.operation.state).toBe("failure");
    expect(info.operation.error).toMatch(/127\.0\.0\.1 resolves to an address that cannot be fetched/);
    expect(server.authorizations.length).toBe(requests);

    await post(spaceId, "import", { url: server.url("docs", gitUser), ref: "refs/heads/main" });
    await runQueued();
    expect((await gitInfo(spaceId)).operation.state).toBe("success");
  });
});

describe("Git sync requests", () => {
  it("answers 400 for bad bodies, 404 for info of a space never synchronized, 403 below create", async () => {
    const spaceId = await newSpace("Requests");
    const bad = [
      {},
      { url: "file:///tmp/x.git" },
      { url: "ftp://example.com/x.git", ref: "refs/heads/main" },
      { url: "not a url", ref: "refs/heads/main" },
      { url: "file:///tmp/x.git", ref: "main" },
      { url: "file:///tmp/x.git", ref: "refs/heads/../x" },
      { url: "file:///tmp/x.git", ref: "refs/heads/main", timestamp: "yesterday" },
      { url: "file:///tmp/x.git", ref: "refs/heads/main", repoProjectDirectory: "../up" },
      { url: "file:///tmp/x.git", ref: "refs/heads/main", gitInfo: { provider: "svn" } },
    ];
    for (const body of bad) {
      const response = await t.rest<{ error: { code: number } }>("POST", `/spaces/${spaceId}/git/import`, {
        token: admin(),
        body,
      });
      expect([response.status, response.body.error.code]).toEqual([400, 400]);
    }
    const noMessage = await t.rest("POST", `/spaces/${spaceId}/git/export`, {
      token: admin(),
      body: { url: "file:///tmp/x.git", ref: "refs/heads/main" },
    });
    expect(noMessage.status).toBe(400);
    expect(await t.db.prisma.job.count({ where: { payload: { path: ["spaceId"], equals: spaceId } } })).toBe(0);

    const info = await t.rest<{ error: { code: number } }>("GET", `/spaces/${spaceId}/git/info`, { token: admin() });
    expect([info.status, info.body.error.code]).toEqual([404, 404]);
    const denied = await t.rest("POST", `/spaces/${spaceId}/git/import`, {
      token: org.members.edit.token,
      body: { url: "file:///tmp/x.git", ref: "refs/heads/main" },
    });
    expect(denied.status).toBe(403);
    const removed = await api.spaces.deleteLegacyGitInstallation(spaceId);
    expect(removed.status).toBe(204);
  });
});

describe("file:// repositories", () => {
  it("are refused with 400 unless GIT_FILE_URLS is on", async () => {
    const strict = await startTestApp({ env: { GIT_FILE_URLS: "false" } });
    const owner = await seedOrganization(strict.db, "Strict Git");
    const space = await strict.rest<{ id: string }>("POST", `/orgs/${owner.organizationId}/spaces`, {
      token: owner.members.admin.token,
      body: { title: "Strict" },
    });
    const refused = await strict.rest<{ error: { code: number; message: string } }>(
      "POST",
      `/spaces/${space.body.id}/git/import`,
      { token: owner.members.admin.token, body: { url: "file:///srv/repo.git", ref: "refs/heads/main" } },
    );
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain("GIT_FILE_URLS");
  });
});
