import { beforeAll, describe, expect, it } from "vitest";
import { type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";

// Reading one page of a large space reads that page's branch, not every page of the revision: the page versions
// (markdown included) a read fetches are counted from the parameters of the statements that fetch them.

let t: TestApp;
let org: SeededOrganization;
let spaceId: string;
let chapter: string;
let sections: string[];
let otherPages = 0;
let captured: { sql: string; params: unknown[] }[] = [];

async function insert(pages: Record<string, unknown>[]): Promise<string[]> {
  const response = await t.rest<{ inserted: { id: string }[] }>("POST", `/spaces/${spaceId}/content`, {
    token: org.members.admin.token,
    body: { changes: pages.map((page) => ({ type: "insert", page })) },
  });
  expect(response.status).toBe(200);
  return response.body.inserted.map((entry) => entry.id);
}

/** Page versions the statements sent by `request` fetched (the version ids bound to its "PageVersion" reads). */
async function versionsRead(request: () => Promise<unknown>): Promise<number> {
  captured = [];
  await request();
  return captured
    .filter(({ sql }) => /FROM "public"\."PageVersion"/.test(sql))
    .reduce((sum, { params }) => sum + params.filter((param) => String(param).startsWith("pv_")).length, 0);
}

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db);
  const space = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/spaces`, {
    token: org.members.admin.token,
    body: { title: "Large" },
  });
  spaceId = space.body.id;
  [chapter] = (await insert([{ title: "Chapter", markdown: "The chapter." }])) as [string];
  sections = await insert(
    ["One", "Two", "Three"].map((title) => ({ title, parent: chapter, markdown: `Section ${title}.` })),
  );
  for (let batch = 0; batch < 4; batch++) {
    const ids = await insert(
      Array.from({ length: 50 }, (_, index) => ({
        title: `Other ${batch}-${index}`,
        markdown: "Long text. ".repeat(200),
      })),
    );
    otherPages += ids.length;
  }
  t.db.onStatement((sql, params) => captured.push({ sql, params }));
});

describe("one page of a large space", () => {
  it("is read with its subpages and ancestors only, over REST and GraphQL", async () => {
    let body: { id?: string; path?: string; pages?: { id: string; path: string }[] } = {};
    const rest = await versionsRead(async () => {
      const response = await t.rest<typeof body>("GET", `/spaces/${spaceId}/content/page/${sections[1]}`, {
        token: org.members.admin.token,
      });
      expect(response.status).toBe(200);
      body = response.body;
    });
    expect(body).toMatchObject({ id: sections[1], path: "chapter/two", pages: [] });
    // The page and its parent (its path), not the 200 other pages.
    expect(rest).toBeGreaterThan(0);
    expect(rest).toBeLessThanOrEqual(2);

    const parent = await versionsRead(async () => {
      const response = await t.rest<typeof body>("GET", `/spaces/${spaceId}/content/page/${chapter}`, {
        token: org.members.admin.token,
      });
      body = response.body;
    });
    expect(body.pages?.map((page) => [page.id, page.path])).toEqual([
      [sections[0], "chapter/one"],
      [sections[1], "chapter/two"],
      [sections[2], "chapter/three"],
    ]);
    expect(parent).toBeLessThanOrEqual(1 + sections.length);

    const graphql = await versionsRead(() =>
      t
        .graphql(org.members.admin.token)
        .request(`query($id: ID!, $page: ID!) { space(id: $id) { revision { page(id: $page) { title path } } } }`, {
          id: spaceId,
          page: sections[2],
        }),
    );
    expect(graphql).toBeLessThanOrEqual(2);
    expect(otherPages).toBe(200);
  });

  it("answers null for a page the revision does not have", async () => {
    const data = await t
      .graphql(org.members.admin.token)
      .request<{ space: { revision: { page: null } } }>(
        `query($id: ID!) { space(id: $id) { revision { page(id: "page_missing") { title } } } }`,
        { id: spaceId },
      );
    expect(data.space.revision.page).toBeNull();
  });
});
