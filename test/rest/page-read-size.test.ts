import { beforeAll, describe, expect, it } from "vitest";
import { type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";

// Reading one page of a large space reads that page, its ancestors and its subpages, not every page of the
// revision; a tree reads no markdown it does not answer. Seen in the statements sent and the ids they bind.

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

/** The statements `request` sends. */
async function statementsOf(request: () => Promise<unknown>): Promise<{ sql: string; params: unknown[] }[]> {
  captured = [];
  await request();
  return captured;
}

/** Statements that read the revision's page rows without naming one of `pageIds`: a read of the whole revision. */
const wholeRevisionReads = (statements: { sql: string; params: unknown[] }[], pageIds: string[]) =>
  statements.filter(
    ({ sql, params }) =>
      sql.includes('"RevisionPage"') &&
      !params.some((param) => pageIds.some((id) => (Array.isArray(param) ? param.includes(id) : param === id))),
  );

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
  it("is read by its id, its path from its ancestors and its subpages through the parent index", async () => {
    let body: { id?: string; path?: string; markdown?: string; pages?: { id: string; path: string }[] } = {};
    const rest = await statementsOf(async () => {
      const response = await t.rest<typeof body>("GET", `/spaces/${spaceId}/content/page/${sections[1]}`, {
        token: org.members.admin.token,
        query: { format: "markdown" },
      });
      expect(response.status).toBe(200);
      body = response.body;
    });
    expect(body).toMatchObject({ id: sections[1], path: "chapter/two", markdown: "Section Two.", pages: [] });
    expect(wholeRevisionReads(rest, [sections[1] as string])).toEqual([]);
    // The page with its ancestors and markdown in one statement, its subpages in another: none read the others'.
    expect(rest.filter(({ sql }) => sql.includes('"RevisionPage"'))).toHaveLength(2);

    const parent = await statementsOf(async () => {
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
    expect(wholeRevisionReads(parent, [chapter])).toEqual([]);
    // The subpages' markdown (the listing carries it): the three versions, read by id.
    const bodies = parent.filter(({ sql }) => /"markdown"/.test(sql) && !sql.includes('"RevisionPage"'));
    expect(bodies.map(({ params }) => params.flat().filter((param) => String(param).startsWith("pv_")).length)).toEqual(
      [3],
    );

    const graphql = await statementsOf(() =>
      t
        .graphql(org.members.admin.token)
        .request(`query($id: ID!, $page: ID!) { space(id: $id) { revision { page(id: $page) { title path } } } }`, {
          id: spaceId,
          page: sections[2],
        }),
    );
    expect(wholeRevisionReads(graphql, [sections[2] as string])).toEqual([]);
    expect(graphql.filter(({ sql }) => sql.includes('"RevisionPage"'))).toHaveLength(1);
    expect(otherPages).toBe(200);
  });

  it("reads the page tree without the markdown bodies it does not answer", async () => {
    let roots: { title: string; pages: { path: string }[] }[] = [];
    const tree = await statementsOf(async () => {
      const data = await t
        .graphql(org.members.admin.token)
        .request<{ space: { revision: { pages: typeof roots } } }>(
          `query($id: ID!) { space(id: $id) { revision { pages { title pages { path } } } } }`,
          { id: spaceId },
        );
      roots = data.space.revision.pages;
    });
    expect(roots).toHaveLength(1 + otherPages);
    expect(roots[0]?.pages.map((page) => page.path)).toEqual(["chapter/one", "chapter/two", "chapter/three"]);
    expect(tree.filter(({ sql }) => /"markdown"/.test(sql))).toEqual([]);

    // The listing carries every body: one more statement, the versions by id.
    const listing = await statementsOf(async () => {
      const response = await t.rest<{ pages: unknown[] }>("GET", `/spaces/${spaceId}/content/pages`, {
        token: org.members.admin.token,
      });
      expect(response.body.pages).toHaveLength(1 + otherPages);
    });
    const bodies = listing.filter(({ sql }) => /"markdown"/.test(sql));
    expect(bodies).toHaveLength(1);
  });

  it("posts a comment on a page reading that page alone", async () => {
    const statements = await statementsOf(async () => {
      const response = await t.rest("POST", `/spaces/${spaceId}/comments`, {
        token: org.members.admin.token,
        body: { body: { markdown: "Noted." }, page: sections[0] },
      });
      expect(response.status).toBe(200);
    });
    expect(wholeRevisionReads(statements, [sections[0] as string])).toEqual([]);
  });

  it("reads one file by its id, not the revision's others", async () => {
    const response = await t.rest<{ inserted: { id: string }[] }>("POST", `/spaces/${spaceId}/content`, {
      token: org.members.admin.token,
      body: {
        changes: ["a.txt", "b.txt", "c.txt"].map((name) => ({
          type: "insert",
          file: { name, contentType: "text/plain", content: Buffer.from(name).toString("base64") },
        })),
      },
    });
    const fileId = response.body.inserted[1]?.id as string;
    let file: { name?: string } = {};
    const statements = await statementsOf(async () => {
      file = (
        await t.rest<typeof file>("GET", `/spaces/${spaceId}/content/files/${fileId}`, {
          token: org.members.admin.token,
        })
      ).body;
    });
    expect(file.name).toBe("b.txt");
    const fileReads = statements.filter(({ sql }) => sql.includes('"RevisionFile"'));
    expect(fileReads).toHaveLength(1);
    expect(fileReads[0]?.params).toContain(fileId);
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
