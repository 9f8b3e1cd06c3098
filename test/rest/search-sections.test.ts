import { beforeAll, describe, expect, it } from "vitest";
import type { SearchSectionHit } from "../../src/modules/search/search.service.ts";
import { type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { editContent } from "../helpers/content.ts";

// A page version's sections are stored when it is written (PageVersionSection, with their vectors), and search
// ranks a hit's sections from there; versions without stored sections (written before, or by a bulk import) are
// split when searched, with the same answer.

interface Hit {
  id: string;
  sections: SearchSectionHit[];
}

let t: TestApp;
let org: SeededOrganization;
let admin: string;
let spaceId: string;
let pageId: string;

const markdown = [
  "Read this before the setup.",
  "",
  "## Setup",
  "",
  "Install the `lantern` package.",
  "",
  "## Setup",
  "",
  "Light the lantern twice.",
  "",
  "## Storage",
  "",
  "Keep it dry.",
].join("\n");

function search(query: string) {
  return t.rest<{ items: Hit[] }>("GET", `/spaces/${spaceId}/search`, { token: admin, query: { query } });
}

async function storedSections(id: string, space = spaceId) {
  return t.db.prisma.$queryRaw<{ ordinal: number; anchor: string | null; title: string; body: string }[]>`
    SELECT s."ordinal", s."anchor", s."title", s."body"
    FROM "PageVersionSection" AS s
    JOIN "SearchPage" AS sp ON sp."versionId" = s."versionId"
    WHERE sp."spaceId" = ${space} AND sp."pageId" = ${id}
    ORDER BY s."ordinal"`;
}

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "Sections");
  admin = org.members.admin.token;
  const space = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/spaces`, {
    token: admin,
    body: { title: "Camping" },
  });
  spaceId = space.body.id;
  const written = await editContent(t, admin, `/spaces/${spaceId}/content`, [
    { type: "insert", page: { title: "Lantern guide", markdown } },
  ]);
  pageId = written.inserted[0]?.id as string;
});

describe("search sections", () => {
  it("are stored with the version that is written: anchors unique in the page, the intro under the page title", async () => {
    expect(await storedSections(pageId)).toEqual([
      { ordinal: 0, anchor: null, title: "Lantern guide", body: "Read this before the setup." },
      { ordinal: 1, anchor: "setup", title: "Setup", body: "Install the lantern package." },
      { ordinal: 2, anchor: "setup-2", title: "Setup", body: "Light the lantern twice." },
      { ordinal: 3, anchor: "storage", title: "Storage", body: "Keep it dry." },
    ]);
  });

  it("are copied with a duplicated space's pages", async () => {
    const copy = await t.rest<{ id: string }>("POST", `/spaces/${spaceId}/duplicate`, { token: admin });
    expect(copy.status).toBe(201);
    const copied = await t.rest<{ pages: { id: string; title: string }[] }>(
      "GET",
      `/spaces/${copy.body.id}/content/pages`,
      { token: admin },
    );
    const page = copied.body.pages.find((candidate) => candidate.title === "Lantern guide");
    expect(await storedSections(page?.id as string, copy.body.id)).toEqual(await storedSections(pageId));
    expect((await storedSections(pageId)).map((section) => section.anchor)).toEqual([
      null,
      "setup",
      "setup-2",
      "storage",
    ]);
  });

  it("are ranked from the stored rows, and split from the markdown with the same answer in more statements", async () => {
    const before = t.db.statementCount();
    const stored = await search("lantern");
    const storedStatements = t.db.statementCount() - before;
    expect(stored.status).toBe(200);
    const sections = stored.body.items[0]?.sections ?? [];
    // The page title matches (weight A) in the intro: it ranks first; then the two sections naming a lantern.
    expect(sections.map((section) => section.id)).toEqual([pageId, "setup", "setup-2"]);
    expect(sections[1]).toMatchObject({
      title: "Setup",
      path: "lantern-guide#setup",
      body: "Install the lantern package.",
    });

    // As a version written before sections were stored: the same answer, from its markdown.
    await t.db.prisma.$executeRaw`
      DELETE FROM "PageVersionSection" WHERE "versionId" IN (
        SELECT "versionId" FROM "SearchPage" WHERE "spaceId" = ${spaceId} AND "pageId" = ${pageId})`;
    const start = t.db.statementCount();
    const split = await search("lantern");
    expect(split.body).toEqual(stored.body);
    // Splitting reads the markdown and vectorizes the sections in a statement of its own.
    expect(t.db.statementCount() - start).toBeGreaterThan(storedStatements);
  });

  it("are stored for the new version an edit writes, not for the unchanged pages", async () => {
    const [other] = (
      await editContent(t, admin, `/spaces/${spaceId}/content`, [
        { type: "insert", page: { title: "Tent", markdown: "## Poles\n\nThe tent has four poles." } },
      ])
    ).inserted;
    expect(await storedSections(other?.id as string)).toEqual([
      { ordinal: 0, anchor: "poles", title: "Poles", body: "The tent has four poles." },
    ]);
    expect(await storedSections(pageId)).toEqual([]);
    await editContent(t, admin, `/spaces/${spaceId}/content`, [
      { type: "update", pageId: other?.id, page: { markdown: "## Pegs\n\nTwelve pegs." } },
    ]);
    expect((await storedSections(other?.id as string)).map((section) => section.anchor)).toEqual(["pegs"]);
    const hits = (await search("pegs")).body.items;
    expect(hits.map((hit) => hit.sections.map((section) => section.id))).toEqual([["pegs"]]);
    expect((await search("poles")).body.items).toEqual([]);
  });
});
