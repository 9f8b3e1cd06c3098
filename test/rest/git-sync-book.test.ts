import { beforeAll, describe, expect, it } from "vitest";
import { type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { commitBook, type GitBook, generateBook } from "../helpers/git-book.ts";
import { commitCount, createBareRepository, readBranch, repositoryRoot } from "../helpers/git-repo.ts";

// A generated book of dozens of pages: imported, edited through a change request, merged and exported back, step by
// step. The repository is a bare one on disk (file://): Git over HTTP with credentials has its own tests
// (git-sync.test.ts); here the book's layout is the subject, without an HTTP server spawning Git for each request.
let t: TestApp;
let org: SeededOrganization;
let book: GitBook;
let bare: string;
let url: string;
let spaceId: string;
let imported: { pages: PageBody[]; files: { name: string; size: number }[] };
let chapter: PageBody;
let topic: PageBody;

type PageBody = { id: string; title: string; type: string; pages: PageBody[]; git?: { path: string } };

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "Git Book Org");
  book = generateBook();
  bare = createBareRepository(repositoryRoot(), "book");
  commitBook(bare, "main", book);
  url = `file://${bare}`;
});

const titles = (pages: { title: string; pages?: unknown[]; children?: unknown[] }[]): unknown[] =>
  pages.map((page) => {
    const children = (page.pages ?? page.children ?? []) as typeof pages;
    return children.length > 0 ? [page.title, titles(children)] : page.title;
  });

async function call<Body>(method: string, path: string, body?: unknown) {
  const response = await t.rest<Body>(method, path, { token: org.members.admin.token, body });
  expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBeLessThan(300);
  return response.body;
}

describe("a generated book round-trips through Git", () => {
  it("imports the book's layout, pages and assets", async () => {
    expect(book.allPages.length).toBeGreaterThanOrEqual(40);
    expect(book.links.filter((link) => link.kind === "missing").length).toBeGreaterThan(0);
    const space = await call<{ id: string }>("POST", `/orgs/${org.organizationId}/spaces`, { title: "Book" });
    spaceId = space.id;
    await call("POST", `/spaces/${spaceId}/git/import`, { url, ref: "refs/heads/main" });
    await t.runJobs();
    imported = await call("GET", `/spaces/${spaceId}/content`);
    expect(titles(imported.pages)).toEqual([
      ...titles(book.pages),
      ["Appendix", book.groups[0]?.pages.map((page) => page.title)],
    ]);
    expect(imported.files.map((file) => file.name).sort()).toEqual(book.assets.map((asset) => asset.name).sort());
  });

  it("takes an edit and a new page through a merged change request", async () => {
    chapter = imported.pages[1] as PageBody;
    topic = chapter.pages[0] as PageBody;
    const changeRequest = await call<{ id: string }>("POST", `/spaces/${spaceId}/change-requests`, {
      subject: "Edit the book",
    });
    const base = `/spaces/${spaceId}/change-requests/${changeRequest.id}`;
    await call("POST", `${base}/content`, {
      changes: [
        { type: "update", pageId: topic.id, page: { markdown: "Rewritten in a change request.\n" } },
        { type: "insert", page: { title: "New topic", markdown: "Added.\n", parent: chapter.id } },
      ],
    });
    await call("POST", `${base}/merge`);
  });

  it("exports the same layout back, with the edit, the new page and every link as written", async () => {
    await call("POST", `/spaces/${spaceId}/git/export`, { url, ref: "refs/heads/main", commitMessage: "Book edits" });
    await t.runJobs();
    const info = await call<{ operation: { state: string; error?: string } }>("GET", `/spaces/${spaceId}/git/info`);
    expect(info.operation).toMatchObject({ state: "success" });
    expect(commitCount(bare, "main")).toBe(2);
    const exported = readBranch(bare, "main");
    expect(exported.message).toBe("Book edits");

    const edited = book.allPages.find((page) => page.path === topic.git?.path);
    expect(edited).toBeDefined();
    const newTopicPath = `${chapter.git?.path.replace(/README\.md$/, "")}new-topic.md`;
    expect([...exported.files.keys()].sort()).toEqual([...Object.keys(book.files), newTopicPath].sort());
    for (const page of book.allPages) {
      const text = exported.files.get(page.path)?.toString();
      if (page === edited) expect(text).toBe(`# ${page.title}\n\nRewritten in a change request.\n`);
      else expect(text, page.path).toBe(book.files[page.path]);
    }
    for (const asset of book.assets) expect(exported.files.get(asset.path)).toEqual(asset.bytes);
    expect(exported.files.get(newTopicPath)?.toString()).toBe("# New topic\n\nAdded.\n");
    const summary = exported.files.get("SUMMARY.md")?.toString() ?? "";
    const chapterLines = (book.files["SUMMARY.md"] as string).split("\n");
    const lastOfChapter = chapterLines.findLastIndex((line) => line.includes(`(chapter-1/`));
    chapterLines.splice(lastOfChapter + 1, 0, `  * [New topic](${newTopicPath})`);
    expect(summary).toBe(chapterLines.join("\n"));
    // Links between pages, to assets, to missing pages and outside are kept as written.
    for (const link of book.links) {
      if (link.from === edited?.path) continue;
      expect(exported.files.get(link.from)?.toString(), link.href).toContain(`](${link.href})`);
    }
  });
});
