import { beforeAll, describe, expect, it } from "vitest";
import { createSpace } from "../factories.ts";
import { type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { editContent } from "../helpers/content.ts";

// Issue 53, item 3: a write in a change request and its merge cost what they change, not the size of the space.
// What a write sends is counted as statements and the parameters they bind (each page row written binds its
// columns); both must be the same in a space of 3 pages and one of 60.

let t: TestApp;
let org: SeededOrganization;
let editor: string;
let reviewer: string;
let parameters = 0;

type PageBody = { id: string; title: string; markdown?: string; pages: PageBody[] };

const body = (index: number) => `## Part ${index}\n\n${"Words of a page that no write should read. ".repeat(20)}\n`;

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "Write Cost Org");
  editor = org.members.edit.token;
  reviewer = org.members.admin.token;
  t.db.onStatement((_sql, params) => {
    parameters += params.length;
  });
});

/** What one request sent to the database. */
async function cost(request: () => Promise<unknown>) {
  const before = { statements: t.db.statementCount(), parameters };
  await request();
  return { statements: t.db.statementCount() - before.statements, parameters: parameters - before.parameters };
}

/** A space of `pages` pages (ten at the root, the others under them) and two files, and a change request in it. */
async function spaceOf(pages: number) {
  const spaceId = (await createSpace(t, org, { title: `${pages} pages` })).id;
  const roots = await editContent(
    t,
    editor,
    `/spaces/${spaceId}/content`,
    Array.from({ length: Math.min(pages, 10) }, (_, index) => ({
      type: "insert",
      page: { title: `Root ${index}`, markdown: body(index) },
    })),
  );
  for (let from = 10; from < pages; from += 50) {
    await editContent(
      t,
      editor,
      `/spaces/${spaceId}/content`,
      Array.from({ length: Math.min(50, pages - from) }, (_, index) => ({
        type: "insert",
        page: { title: `Page ${from + index}`, markdown: body(from + index), parent: roots.inserted[index % 10]?.id },
      })),
    );
  }
  await editContent(
    t,
    editor,
    `/spaces/${spaceId}/content`,
    ["a.txt", "b.txt"].map((name) => ({
      type: "insert",
      file: { name, contentType: "text/plain", content: Buffer.from(name).toString("base64") },
    })),
  );
  const changeRequest = await t.rest<{ id: string }>("POST", `/spaces/${spaceId}/change-requests`, {
    token: editor,
    body: { subject: "Small change" },
  });
  expect(changeRequest.status).toBe(201);
  const firstPage = roots.inserted[0]?.id as string;
  return { spaceId, base: `/spaces/${spaceId}/change-requests/${changeRequest.body.id}`, firstPage };
}

/** A page created, a page's body changed, a page moved and a file removed in the change request, then merged. */
async function writesAndMerge(pages: number) {
  const { spaceId, base, firstPage } = await spaceOf(pages);
  const files = await t.rest<{ items: { id: string; name: string }[] }>("GET", `/spaces/${spaceId}/content/files`, {
    token: editor,
  });
  const fileA = files.body.items.find((file) => file.name === "a.txt")?.id as string;
  const post =
    (path: string, payload: unknown, token = editor) =>
    async () => {
      const response = await t.rest<{ inserted: { id: string }[] }>("POST", path, { token, body: payload });
      expect(response.status).toBe(200);
      return response.body;
    };
  const create = await cost(post(`${base}/content`, { changes: [{ type: "insert", page: { title: "New page" } }] }));
  const update = await cost(
    post(`${base}/content`, {
      changes: [{ type: "update", pageId: firstPage, page: { markdown: "Rewritten in the change request.\n" } }],
    }),
  );
  const retitle = await cost(
    post(`${base}/content`, { changes: [{ type: "update", pageId: firstPage, page: { title: "Root zero" } }] }),
  );
  const removeFile = await cost(post(`${base}/content`, { changes: [{ type: "delete", fileId: fileA }] }));
  const merge = await cost(post(`${base}/merge`, {}, reviewer));
  return { spaceId, firstPage, create, update, retitle, removeFile, merge };
}

describe("writes in a change request", () => {
  it("send as many statements and parameters in a space of 60 pages as in one of 3, and merge what changed", async () => {
    const small = await writesAndMerge(3);
    const large = await writesAndMerge(60);
    for (const write of ["create", "update", "retitle", "removeFile", "merge"] as const) {
      expect({ write, ...large[write] }).toEqual({ write, ...small[write] });
    }
    // A write binds its few rows, not one per page of the space (60 pages would bind 300 parameters).
    expect(large.create.parameters).toBeLessThan(100);
    expect(large.merge.parameters).toBeLessThan(100);

    // The merged space holds every page, the changed one with its new title and body (kept by the retitle, which
    // sent no markdown), the others as they were, and the file that was not removed.
    const content = await t.rest<{ pages: PageBody[] }>("GET", `/spaces/${large.spaceId}/content/pages`, {
      token: editor,
      query: { format: "markdown" },
    });
    expect(content.status).toBe(200);
    const all = (pages: PageBody[]): PageBody[] => pages.flatMap((page) => [page, ...all(page.pages)]);
    const merged = all(content.body.pages);
    expect(merged).toHaveLength(61);
    expect(merged.find((page) => page.id === large.firstPage)).toMatchObject({
      title: "Root zero",
      markdown: "Rewritten in the change request.\n",
    });
    expect(merged.find((page) => page.title === "Page 42")?.markdown).toBe(body(42));
    expect(merged.filter((page) => page.title === "New page")).toHaveLength(1);
    const files = await t.rest<{ items: { name: string }[] }>("GET", `/spaces/${large.spaceId}/content/files`, {
      token: editor,
    });
    expect(files.body.items.map((file) => file.name)).toEqual(["b.txt"]);
  });

  it("merges a page changed on both sides line by line, reading the bodies it compares", async () => {
    const { spaceId, base, firstPage } = await spaceOf(12);
    const lines = ["one", "two", "three", "four", "five"];
    await editContent(t, editor, `/spaces/${spaceId}/content`, [
      { type: "update", pageId: firstPage, page: { markdown: lines.join("\n") } },
    ]);
    const pull = await t.rest("POST", `${base}/update`, { token: editor, body: {} });
    expect(pull.status).toBe(200);
    await editContent(t, editor, `${base}/content`, [
      { type: "update", pageId: firstPage, page: { markdown: ["ONE", ...lines.slice(1)].join("\n") } },
    ]);
    await editContent(t, editor, `/spaces/${spaceId}/content`, [
      { type: "update", pageId: firstPage, page: { markdown: [...lines.slice(0, 4), "FIVE"].join("\n") } },
    ]);
    const merge = await t.rest("POST", `${base}/merge`, { token: reviewer, body: {} });
    expect(merge.status).toBe(200);
    const page = await t.rest<PageBody>("GET", `/spaces/${spaceId}/content/page/${firstPage}`, {
      token: editor,
      query: { format: "markdown" },
    });
    expect(page.body.markdown).toBe(["ONE", "two", "three", "four", "FIVE"].join("\n"));
  });
});
