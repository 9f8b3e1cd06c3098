import { beforeAll, describe, expect, it } from "vitest";
import { createSpace } from "../factories.ts";
import { baseUrl, type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { editContent } from "../helpers/content.ts";
import { expectMatchesSpec } from "../helpers/contract.ts";
import { extractPdfText } from "../helpers/pdf.ts";

let t: TestApp;
let org: SeededOrganization;
let editor: string;

type FileBody = { id: string; name: string; contentType: string; size: number; downloadURL: string };
type PageBody = {
  id: string;
  title: string;
  path: string;
  markdown?: string;
  document?: { object: string; nodes: { type: string }[] };
  pages: PageBody[];
};

const pageMarkdown = [
  "# Getting started",
  "",
  'Welcome to **Acme** on <code class="expression">space.vars.product</code>, version <code class="expression">page.vars.version</code>.',
  "",
  'Hello <code class="expression">visitor.claims.name</code>.',
  "",
  "- one",
  "- two",
  "",
  "```js",
  "console.log(1);",
  "```",
  "",
  "| a | b |",
  "| - | - |",
  "| 1 | 2 |",
  "",
  '{% hint style="info" %}',
  "Read the [guide](https://example.com) first.",
  "{% endhint %}",
  "",
].join("\n");

const newSpace = async (title: string) => (await createSpace(t, org, { title })).id;
const edit = (path: string, changes: unknown[]) => editContent(t, editor, path, changes);

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "Content Org");
  editor = org.members.edit.token;
});

describe("space content", () => {
  it("serves a page as markdown or as a document, with expressions evaluated as asked", async () => {
    const spaceId = await newSpace("Formats");
    const { inserted } = await edit(`/spaces/${spaceId}/content`, [
      { type: "insert", page: { title: "Getting started", markdown: pageMarkdown, variables: { version: "2.1" } } },
      { type: "insert", page: { title: "Reference", type: "group" } },
    ]);
    const pageId = inserted[0]?.id as string;
    await t.db.prisma.revision.updateMany({ where: { spaceId }, data: { variables: { product: "Rockets" } } });
    const path = `/spaces/${spaceId}/content/page/${pageId}`;

    const asMarkdown = await t.rest<PageBody>("GET", path, { token: editor, query: { format: "markdown" } });
    expect(asMarkdown.status).toBe(200);
    expectMatchesSpec("getPageById", 200, asMarkdown.body);
    expect(asMarkdown.body.markdown).toBe(pageMarkdown);
    expect(asMarkdown.body).not.toHaveProperty("document");
    // A page's `kind` is its `type` under the former name of documents (the GraphQL field left in 0.3.0).
    expect(asMarkdown.body).toMatchObject({ type: "document", kind: "sheet" });

    const asDocument = await t.rest<PageBody>("GET", path, { token: editor });
    expectMatchesSpec("getPageById", 200, asDocument.body);
    expect(asDocument.body).not.toHaveProperty("markdown");
    expect(asDocument.body.document?.object).toBe("document");
    const types = asDocument.body.document?.nodes.map((node) => node.type);
    expect(types).toEqual(
      expect.arrayContaining(["heading-1", "paragraph", "list-unordered", "code", "table", "hint"]),
    );

    const evaluated = await t.rest<PageBody>("GET", path, {
      token: editor,
      query: { format: "markdown", evaluated: true },
    });
    // Values are literal text: markdown punctuation in them is escaped.
    expect(evaluated.body.markdown).toContain("on Rockets, version 2\\.1.");
    expect(evaluated.body.markdown).toContain("Hello .");
    const deterministic = await t.rest<PageBody>("GET", path, {
      token: editor,
      query: { format: "markdown", evaluated: "deterministic-only" },
    });
    expect(deterministic.body.markdown).toContain("on Rockets, version 2\\.1.");
    expect(deterministic.body.markdown).toContain('Hello <code class="expression">visitor.claims.name</code>.');

    expect((await t.rest("GET", path, { token: editor, query: { evaluated: "sometimes" } })).status).toBe(400);
    expect((await t.rest("GET", path, { token: editor, query: { format: "html" } })).status).toBe(400);
    expect((await t.rest("GET", `/spaces/${spaceId}/content/page/page_missing`, { token: editor })).status).toBe(404);
    expect((await t.rest("GET", path, { token: org.members.guest.token })).status).toBe(404);
  });

  it("stores files once, lists and serves them only to readers of the space", async () => {
    const spaceId = await newSpace("Files");
    const bytes = Buffer.from("hello files\n");
    const { inserted } = await edit(`/spaces/${spaceId}/content`, [
      { type: "insert", file: { name: "b.txt", contentType: "text/plain", content: bytes.toString("base64") } },
      { type: "insert", file: { name: "a.txt", contentType: "text/plain", content: bytes.toString("base64") } },
      {
        type: "insert",
        file: { name: "c.png", contentType: "image/png", content: "iVBORw0KGgo=", width: 4, height: 2 },
      },
    ]);
    expect(inserted.map((item) => item.type)).toEqual(["file", "file", "file"]);
    // Same bytes, one blob.
    const hashes = await t.db.prisma.revisionFile.findMany({
      where: { fileId: { in: inserted.map((item) => item.id) } },
    });
    expect(new Set(hashes.map((row) => row.blobHash)).size).toBe(2);

    const first = await t.rest<{ items: FileBody[]; next?: { page: string }; count: number }>(
      "GET",
      `/spaces/${spaceId}/content/files`,
      { token: editor, query: { limit: 2 } },
    );
    expect(first.status).toBe(200);
    expectMatchesSpec("listFiles", 200, first.body);
    expect(first.body.items.map((file) => file.name)).toEqual(["a.txt", "b.txt"]);
    expect(first.body.count).toBe(3);
    const second = await t.rest<{ items: FileBody[]; next?: unknown }>("GET", `/spaces/${spaceId}/content/files`, {
      token: editor,
      query: { limit: 2, page: first.body.next?.page },
    });
    expect(second.body.items.map((file) => file.name)).toEqual(["c.png"]);
    expect(second.body.next).toBeUndefined();

    const file = await t.rest<FileBody & { dimensions?: unknown }>(
      "GET",
      `/spaces/${spaceId}/content/files/${inserted[2]?.id}`,
      { token: editor },
    );
    expectMatchesSpec("getFileById", 200, file.body);
    expect(file.body).toMatchObject({ name: "c.png", size: 8, dimensions: { width: 4, height: 2 } });

    const a = first.body.items[0] as FileBody;
    expect(a.downloadURL.startsWith(`${baseUrl}/files/${spaceId}/`)).toBe(true);
    const download = (token?: string) =>
      t.app.fetch(new Request(a.downloadURL, { headers: token ? { authorization: `Bearer ${token}` } : {} }));
    const ok = await download(org.members.read.token);
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toBe("text/plain");
    expect(Buffer.from(await ok.arrayBuffer()).equals(bytes)).toBe(true);
    expect((await download()).status).toBe(401);
    expect((await download(org.members.guest.token)).status).toBe(404);
    const outsider = await seedOrganization(t.db, "Outsider");
    expect((await download(outsider.members.admin.token)).status).toBe(404);

    const removed = await edit(`/spaces/${spaceId}/content`, [{ type: "delete", fileId: a.id }]);
    const revision = await t.rest<{ files: FileBody[]; id: string }>("GET", `/spaces/${spaceId}/content`, {
      token: editor,
    });
    expect(revision.body.id).toBe(removed.revision);
    expect(revision.body.files.map((item) => item.name)).toEqual(["b.txt", "c.png"]);
    // The old revision still has it: revisions are immutable.
    expect((await download(editor)).status).toBe(200);
  });

  it("shares unchanged pages between revisions and copies content on duplicate", async () => {
    const spaceId = await newSpace("Sharing");
    await edit(
      `/spaces/${spaceId}/content`,
      Array.from({ length: 5 }, (_, index) => ({
        type: "insert",
        page: { title: `Page ${index}`, markdown: `body ${index}` },
      })),
    );
    const versionsBefore = await t.db.prisma.pageVersion.count({ where: { spaceId } });
    const pages = await t.rest<{ pages: PageBody[] }>("GET", `/spaces/${spaceId}/content/pages`, { token: editor });
    await edit(`/spaces/${spaceId}/content`, [
      { type: "update", pageId: pages.body.pages[0]?.id, page: { markdown: "changed" } },
    ]);
    expect(await t.db.prisma.pageVersion.count({ where: { spaceId } })).toBe(versionsBefore + 1);

    const copy = await t.rest<{ id: string; revision: string }>("POST", `/spaces/${spaceId}/duplicate`, {
      token: org.members.admin.token,
    });
    expect(copy.status).toBe(201);
    const copied = await t.rest<{ pages: PageBody[] }>("GET", `/spaces/${copy.body.id}/content/pages`, {
      token: editor,
    });
    expect(copied.body.pages.map((page) => [page.title, page.markdown])).toEqual([
      ["Page 0", "changed"],
      ["Page 1", "body 1"],
      ["Page 2", "body 2"],
      ["Page 3", "body 3"],
      ["Page 4", "body 4"],
    ]);
  });

  it("reads content in a fixed number of statements whatever the number of pages", async () => {
    const statementsFor = async (spaceId: string) => {
      const before = t.db.statementCount();
      const response = await t.rest<{ pages: PageBody[] }>("GET", `/spaces/${spaceId}/content`, { token: editor });
      expect(response.status).toBe(200);
      return { statements: t.db.statementCount() - before, pages: response.body.pages };
    };
    const small = await newSpace("Small");
    await edit(`/spaces/${small}/content`, [{ type: "insert", page: { title: "Only" } }]);
    const large = await newSpace("Large");
    const { inserted } = await edit(
      `/spaces/${large}/content`,
      Array.from({ length: 40 }, (_, index) => ({ type: "insert", page: { title: `Top ${index}` } })),
    );
    await edit(
      `/spaces/${large}/content`,
      inserted
        .slice(0, 30)
        .map((item, index) => ({ type: "insert", page: { title: `Child ${index}`, parent: item.id } })),
    );
    const smallRead = await statementsFor(small);
    const largeRead = await statementsFor(large);
    expect(largeRead.pages).toHaveLength(40);
    expect(largeRead.pages[0]?.pages.map((page) => page.path)).toEqual(["top-0/child-0"]);
    expect(largeRead.statements).toBe(smallRead.statements);
    // token, membership, space, grant, revision, pages with versions, files.
    expect(largeRead.statements).toBeLessThanOrEqual(9);
  });
});

describe("change request content", () => {
  it("serves the change request's revision, pages, files and a PDF of its content", async () => {
    const spaceId = await newSpace("Printed");
    const cr = await t.rest<{ id: string; number: number }>("POST", `/spaces/${spaceId}/change-requests`, {
      token: editor,
      body: { subject: "Print me" },
    });
    const base = `/spaces/${spaceId}/change-requests/${cr.body.number}`;
    const { inserted } = await edit(`${base}/content`, [
      { type: "insert", page: { title: "Chapter Café", markdown: "Bread and **butter**.\n\n- jam\n" } },
      { type: "insert", page: { title: "Appendix", markdown: "Tables:\n\n| k | v |\n| - | - |\n| x | 1 |\n" } },
      { type: "insert", file: { name: "note.txt", contentType: "text/plain", content: "bm90ZQ==" } },
    ]);
    const [chapter, appendix, file] = inserted.map((item) => item.id) as [string, string, string];
    await edit(`${base}/content`, [
      { type: "insert", page: { title: "Section One", parent: chapter, markdown: "Deep." } },
    ]);

    const revision = await t.rest("GET", `${base}/content`, { token: editor });
    expectMatchesSpec("getRevisionOfChangeRequestById", 200, revision.body);
    const pages = await t.rest<{ pages: PageBody[] }>("GET", `${base}/content/pages`, { token: editor });
    expectMatchesSpec("listPagesInChangeRequest", 200, pages.body);
    expect(pages.body.pages.map((page) => page.title)).toEqual(["Chapter Café", "Appendix"]);
    const page = await t.rest<PageBody>("GET", `${base}/content/page/${chapter}`, { token: editor });
    expectMatchesSpec("getPageInChangeRequestById", 200, page.body);
    expect(page.body.pages.map((child) => child.title)).toEqual(["Section One"]);
    const files = await t.rest("GET", `${base}/content/files`, { token: editor });
    expectMatchesSpec("listFilesInChangeRequestById", 200, files.body);
    const one = await t.rest("GET", `${base}/content/files/${file}`, { token: editor });
    expectMatchesSpec("getFileInChangeRequestById", 200, one.body);
    // The space itself is untouched.
    expect(
      (await t.rest<{ pages: unknown[] }>("GET", `/spaces/${spaceId}/content/pages`, { token: editor })).body.pages,
    ).toEqual([]);

    const pdf = await t.rest<{ url: string }>("GET", `${base}/pdf`, { token: editor });
    expect(pdf.status).toBe(200);
    expectMatchesSpec("getChangeRequestPDF", 200, pdf.body);
    const printed = await t.app.fetch(new Request(pdf.body.url));
    expect(printed.status).toBe(200);
    expect(printed.headers.get("content-type")).toBe("application/pdf");
    const text = await extractPdfText(new Uint8Array(await printed.arrayBuffer()));
    for (const expected of ["Print me", "Chapter Café", "Section One", "Appendix", "Bread and butter", "jam"]) {
      expect(text).toContain(expected);
    }

    const onlyChapter = await t.rest<{ url: string }>("GET", `${base}/pdf`, {
      token: editor,
      query: { page: chapter, only: true },
    });
    const onlyText = await extractPdfText(
      new Uint8Array(await (await t.app.fetch(new Request(onlyChapter.body.url))).arrayBuffer()),
    );
    expect(onlyText).toContain("Chapter Café");
    expect(onlyText).not.toContain("Section One");
    expect(onlyText).not.toContain("Appendix");
    const withChildren = await t.rest<{ url: string }>("GET", `${base}/pdf`, {
      token: editor,
      query: { page: chapter },
    });
    const treeText = await extractPdfText(
      new Uint8Array(await (await t.app.fetch(new Request(withChildren.body.url))).arrayBuffer()),
    );
    expect(treeText).toContain("Section One");
    expect(treeText).not.toContain("Appendix");

    expect((await t.rest("GET", `${base}/pdf`, { token: editor, query: { page: "page_nope" } })).status).toBe(400);
    expect((await t.rest("GET", `${base}/pdf`, { token: editor, query: { only: true } })).status).toBe(400);
    t.clock.advance(60 * 60 * 1000 + 1);
    expect((await t.app.fetch(new Request(pdf.body.url))).status).toBe(404);
    await t.runScheduledJobs();
    expect(await t.db.prisma.contentExport.count({ where: { spaceId } })).toBe(0);
    expect((await t.app.fetch(new Request(`${baseUrl}/exports/${"x".repeat(40)}.pdf`))).status).toBe(404);
    expect(appendix).toMatch(/^page_/);
  });
});
