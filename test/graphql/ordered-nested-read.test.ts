import { beforeAll, describe, expect, it } from "vitest";
import { createSite, createSpace, sitePath } from "../factories.ts";
import { type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";

/** The nested read of the bench, its lists in their own order or in another one, filtered or not. */
const nestedRead = (
  lists: { sites: string; sections: string; siteSpaces: string },
  extra = "",
  siteSpaceExtra = "",
) => `
  query OrderedNestedRead($id: ID!) {
    organization(id: $id) {
      sites(first: 100${lists.sites}) {
        totalCount
        nodes {
          title
          sections(first: 100${lists.sections}) { totalCount nodes { title ${extra} siteSpaces { nodes { path space { title } } } } }
          siteSpaces(first: 100${lists.siteSpaces}) { totalCount nodes { path ${siteSpaceExtra} space { title } } }
        }
      }
    }
  }
`;

const plain = nestedRead({ sites: "", sections: "", siteSpaces: "" });
const orderedLists = {
  sites: `, orderBy: [{ field: TITLE, direction: DESC }], filter: { titleContains: "SITE" }`,
  sections: `, orderBy: [{ field: TITLE, direction: DESC }], filter: { titleContains: "part" }`,
  siteSpaces: `, orderBy: [{ field: PATH, direction: DESC }], filter: { createdAfter: "2000-01-01T00:00:00Z" }`,
};
const ordered = nestedRead(orderedLists);

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});

/** `fanOut` sites of `fanOut` sections of `fanOut` site spaces, and one site the filter leaves out. */
async function seedSites(org: SeededOrganization, fanOut: number) {
  const token = org.members.admin.token;
  for (let s = 0; s < fanOut; s++) {
    const site = await createSite(t, org, { title: `Site ${s}` });
    for (let i = 0; i < fanOut; i++) {
      const spaces = [];
      for (let j = 0; j < fanOut; j++) spaces.push((await createSpace(t, org, { title: `S${i}-${j}` })).id);
      const section = await t.rest<{ id: string }>("POST", `${sitePath(org, site.id)}/sections`, {
        token,
        body: { spaceId: spaces[0], title: `Part ${i}` },
      });
      expect(section.status).toBe(201);
      for (const spaceId of spaces.slice(1)) {
        await t.rest("POST", `${sitePath(org, site.id)}/site-spaces`, {
          token,
          body: { spaceId, sectionId: section.body.id },
        });
      }
    }
  }
  await createSite(t, org, { title: "Elsewhere" });
}

type Read = {
  organization: {
    sites: {
      totalCount: number;
      nodes: {
        title: string;
        sections: { totalCount: number; nodes: { title: string }[] };
        siteSpaces: { totalCount: number; nodes: { path: string }[] };
      }[];
    };
  };
};

async function statementsFor(org: SeededOrganization, query: string) {
  const client = t.graphql(org.members.admin.token);
  const before = t.db.statementCount();
  const data = await client.request<Read>(query, { id: org.organizationId });
  return { statements: t.db.statementCount() - before, data };
}

describe("ordering and filtering the lists of the nested read", () => {
  it("costs one statement more than the plain read, whatever the fan-out", async () => {
    const small = await seedOrganization(t.db, "Small ordered structure");
    await seedSites(small, 1);
    const large = await seedOrganization(t.db, "Large ordered structure");
    await seedSites(large, 3);

    const plainRead = await statementsFor(large, plain);
    const orderedRead = await statementsFor(large, ordered);
    const smallOrderedRead = await statementsFor(small, ordered);

    const sites = orderedRead.data.organization.sites;
    expect(sites.totalCount).toBe(3);
    expect(sites.nodes.map((site) => site.title)).toEqual(["Site 2", "Site 1", "Site 0"]);
    for (const site of sites.nodes) {
      expect(site.sections.nodes.map((section) => section.title)).toEqual(["Part 2", "Part 1", "Part 0"]);
      const paths = site.siteSpaces.nodes.map((siteSpace) => siteSpace.path);
      expect(paths).toEqual([...paths].sort().reverse());
      expect(site.siteSpaces.totalCount).toBe(9);
    }
    expect(plainRead.data.organization.sites.totalCount).toBe(4);

    // Each list is read by one statement for all its parents in the asked order (instead of its own order) and
    // filtered in memory, for 1x and 3x fan-out. The sections' site spaces are read by site in the structure's
    // order: the plain read shares that statement with the sites' own lists, a reordered site list reads its own.
    expect(orderedRead.statements).toBe(plainRead.statements + 1);
    expect(smallOrderedRead.statements).toBe(orderedRead.statements);
  });

  it("costs no more with the sections' default flags, which read the site's structure", async () => {
    const small = await seedOrganization(t.db, "Small structure with defaults");
    await seedSites(small, 1);
    const large = await seedOrganization(t.db, "Large structure with defaults");
    await seedSites(large, 3);
    const withDefaults = (lists: typeof orderedLists) => nestedRead(lists, "default");
    const plainRead = await statementsFor(large, withDefaults({ sites: "", sections: "", siteSpaces: "" }));
    const orderedRead = await statementsFor(large, withDefaults(orderedLists));
    const smallOrderedRead = await statementsFor(small, withDefaults(orderedLists));
    // A section's `default` flag reads the site row, not its sections' list: no order of its own to load (the one
    // more statement of the reordered read is its site list's, as without the flags).
    expect(orderedRead.statements).toBe(plainRead.statements + 1);
    expect(smallOrderedRead.statements).toBe(orderedRead.statements);
  });

  it("adds one statement, whatever the fan-out, when site spaces also show their default flags", async () => {
    const small = await seedOrganization(t.db, "Small structure with site space defaults");
    await seedSites(small, 1);
    const large = await seedOrganization(t.db, "Large structure with site space defaults");
    await seedSites(large, 3);
    const withDefaults = (lists: typeof orderedLists) => nestedRead(lists, "", "default");
    const withoutDefaults = await statementsFor(large, plain);
    const plainRead = await statementsFor(large, withDefaults({ sites: "", sections: "", siteSpaces: "" }));
    const orderedRead = await statementsFor(large, withDefaults(orderedLists));
    const smallOrderedRead = await statementsFor(small, withDefaults(orderedLists));
    // A site space's `default` flag is its scope's live pointer or first live site space in the structure's own
    // order: one statement answers it for every scope of all sites, whatever order the lists are read in.
    expect(plainRead.statements).toBe(withoutDefaults.statements + 1);
    expect(orderedRead.statements).toBe(plainRead.statements + 1);
    expect(smallOrderedRead.statements).toBe(orderedRead.statements);
  });
});
