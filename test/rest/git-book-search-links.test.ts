import { beforeAll, describe, expect, it } from "vitest";
import { type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { commitBook, type GitBook, generateBook } from "../helpers/git-book.ts";
import { createBareRepository, repositoryRoot } from "../helpers/git-repo.ts";

// The acceptance on a real book: imported from Git (a bare repository on disk: Git over HTTP has its own
// tests), its link stats are exact and search finds the right pages first.
let t: TestApp;
let org: SeededOrganization;
let book: GitBook;
let spaceId: string;

interface LinkList {
  items: { status: string }[];
  next?: { page: string };
  stats: { total: number; broken: { total: number; changeRequest: number } };
}
interface SearchHit {
  title: string;
  path: string;
  sections: { title: string; body: string }[];
}

async function call<Body>(method: string, path: string, body?: unknown) {
  const response = await t.rest<Body>(method, path, { token: org.members.admin.token, body });
  expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBeLessThan(300);
  return response.body;
}

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "Book Search Org");
  book = generateBook();
  const bare = createBareRepository(repositoryRoot(), "book");
  commitBook(bare, "main", book);
  const space = await call<{ id: string }>("POST", `/orgs/${org.organizationId}/spaces`, { title: "Book" });
  spaceId = space.id;
  await call("POST", `/spaces/${spaceId}/git/import`, { url: `file://${bare}`, ref: "refs/heads/main" });
  await t.runJobs();
});

async function allLinks(status?: string) {
  const items: LinkList["items"] = [];
  let page: string | undefined;
  let stats: LinkList["stats"] | undefined;
  do {
    const query = new URLSearchParams({ limit: "20", ...(status ? { status } : {}), ...(page ? { page } : {}) });
    const list = await call<LinkList>("GET", `/spaces/${spaceId}/links?${query}`);
    items.push(...list.items);
    stats = list.stats;
    page = list.next?.page;
  } while (page);
  return { items, stats };
}

describe("an imported book", () => {
  it("has exact link stats: one item per distinct target, broken ones are the missing pages", async () => {
    const targets = new Set(book.links.map((link) => link.target));
    const missing = new Set(book.links.filter((link) => link.kind === "missing").map((link) => link.target));
    expect(missing.size).toBeGreaterThan(1);

    const { items, stats } = await allLinks();
    expect(stats).toEqual({ total: targets.size, broken: { total: missing.size, changeRequest: 0 } });
    expect(items).toHaveLength(targets.size);
    const broken = await allLinks("broken");
    expect(broken.items).toHaveLength(missing.size);
    expect(broken.items.every((item) => item.status === "broken")).toBe(true);
    const ok = await allLinks("ok");
    expect(ok.items).toHaveLength(targets.size - missing.size);
  });

  it("search ranks the pages titled with the words first", async () => {
    const glossary = await call<{ items: SearchHit[] }>("GET", `/spaces/${spaceId}/search?query=glossary`);
    expect(glossary.items[0]?.title).toBe("Glossary");
    expect(glossary.items.map((hit) => hit.title)).toContain("FAQ");

    const chapter = await call<{ items: SearchHit[] }>("GET", `/spaces/${spaceId}/search?query=chapter%203`);
    expect(chapter.items[0]?.title).toBe("Chapter 3");

    for (const word of ["delta", "hotel"]) {
      const titled = book.allPages.filter((page) => page.title.endsWith(`: ${word}`)).map((page) => page.title);
      const mentioned = book.allPages.filter((page) => page.body.includes(word) || page.title.includes(word));
      expect(titled.length).toBeGreaterThan(0);
      const hits = await call<{ items: SearchHit[] }>("GET", `/spaces/${spaceId}/search?query=${word}&limit=100`);
      expect(
        hits.items
          .slice(0, titled.length)
          .map((hit) => hit.title)
          .sort(),
      ).toEqual([...titled].sort());
      expect(hits.items).toHaveLength(mentioned.length);
    }

    const forum = await call<{ items: SearchHit[] }>("GET", `/spaces/${spaceId}/search?query=forum`);
    expect(forum.items.map((hit) => hit.title)).toEqual(["Introduction"]);
    expect(forum.items[0]?.sections.map((section) => section.body).join(" ")).toContain("forum");
  });
});
