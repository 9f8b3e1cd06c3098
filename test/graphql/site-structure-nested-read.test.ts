import { print } from "graphql";
import { beforeAll, describe, expect, it } from "vitest";
import { spaceSummaryFields } from "../../src/modules/space/space.graphql.ts";
import { graphql } from "../generated/gql.ts";
import { type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { present } from "../helpers/present.ts";

const SiteStructureNested = graphql(`
  query SiteStructureNested($id: ID!) {
    organization(id: $id) {
      sites(first: 100) {
        nodes {
          title
          sections(first: 100) {
            totalCount
            nodes {
              title
              default
              urls { published }
              siteSpaces { nodes { path default title urls { published } space { title viewerCanView viewerCanAdminister } } }
            }
          }
          sectionGroups {
            nodes {
              title
              sectionList { title }
              children { totalCount nodes { ... on SiteSection { title } ... on SiteSectionGroup { title } } }
            }
          }
          siteSpaces(first: 100) { totalCount nodes { path default sectionId space { title } } }
        }
      }
    }
  }
`);

/** The same lists, with or without the site spaces' spaces. */
const SiteSpacePaths = graphql(`
  query SiteSpacePaths($id: ID!) {
    organization(id: $id) {
      sites(first: 100) {
        nodes {
          sections(first: 100) { nodes { siteSpaces { nodes { path } } } }
          siteSpaces(first: 100) { nodes { path } }
        }
      }
    }
  }
`);
const SiteSpaceTitles = graphql(`
  query SiteSpaceTitles($id: ID!) {
    organization(id: $id) {
      sites(first: 100) {
        nodes {
          sections(first: 100) { nodes { siteSpaces { nodes { path space { title } } } } }
          siteSpaces(first: 100) { nodes { path ...SiteSpaceTitle } }
        }
      }
    }
  }
  fragment SiteSpaceTitle on SiteSpace { title }
`);

/** Every Space field a summary answers (`spaceSummaryFields`). */
graphql(`
  fragment SpaceSummaryFields on Space {
    __typename id title emoji visibility editMode defaultLevel language organizationId organization { id } parentId
    parent { id } revisionId revision { id }
    deletedAt commentCount changeRequestCount changeRequestOpenCount changeRequestDraftCount
    urls { location app }
    viewerCanView viewerCanAccess viewerCanComment viewerCanEdit viewerCanReview viewerCanMerge viewerCanTriggerGitSync
    viewerCanViewInviteLinks viewerCanAdminister viewerCanInstallIntegration
  }
`);
/** The sections' site spaces' spaces, as summaries, then with the fields only full rows answer. */
const SpacesAsSummaries = graphql(`
  query SpacesAsSummaries($id: ID!) {
    organization(id: $id) {
      sites(first: 100) { nodes { sections(first: 100) { nodes { siteSpaces { nodes { space { ...SpaceSummaryFields } } } } } } }
    }
  }
`);
const SpacesInFull = graphql(`
  query SpacesInFull($id: ID!) {
    organization(id: $id) {
      sites(first: 100) {
        nodes {
          sections(first: 100) {
            nodes { siteSpaces { nodes { space { ...SpaceSummaryFields createdAt updatedAt mergeRules } } } }
          }
        }
      }
    }
  }
`);

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});

/** `fanOut` sites, each with `fanOut` sections of `fanOut` site spaces, the sections in one group per site. */
async function seedSites(org: SeededOrganization, fanOut: number) {
  const token = org.members.admin.token;
  const orgPath = `/orgs/${org.organizationId}`;
  for (let s = 0; s < fanOut; s++) {
    const site = await t.rest<{ id: string }>("POST", `${orgPath}/sites`, { token, body: { title: `Site ${s}` } });
    const base = `${orgPath}/sites/${site.body.id}`;
    const sectionIds: string[] = [];
    for (let i = 0; i < fanOut; i++) {
      const spaces: string[] = [];
      for (let j = 0; j < fanOut; j++) {
        const space = await t.rest<{ id: string }>("POST", `${orgPath}/spaces`, {
          token,
          body: { title: `S${i}-${j}` },
        });
        spaces.push(space.body.id);
      }
      const section = await t.rest<{ id: string }>("POST", `${base}/sections`, { token, body: { spaceId: spaces[0] } });
      expect(section.status).toBe(201);
      for (const spaceId of spaces.slice(1)) {
        await t.rest("POST", `${base}/site-spaces`, { token, body: { spaceId, sectionId: section.body.id } });
      }
      sectionIds.push(section.body.id);
    }
    const group = await t.rest("POST", `${base}/section-groups`, {
      token,
      body: { title: "All", sections: sectionIds },
    });
    expect(group.status).toBe(201);
  }
}

async function statementsFor(org: SeededOrganization) {
  const client = t.graphql(org.members.admin.token);
  const before = t.db.statementCount();
  const data = await client.request(SiteStructureNested, { id: org.organizationId });
  return { statements: t.db.statementCount() - before, data };
}

describe("organization { sites { sections { siteSpaces { space } } sectionGroups siteSpaces } }", () => {
  it("costs the same number of SQL statements for 1x and 4x fan-out", async () => {
    const small = await seedOrganization(t.db, "Small structure");
    await seedSites(small, 1);
    const large = await seedOrganization(t.db, "Large structure");
    await seedSites(large, 4);

    const smallRead = await statementsFor(small);
    const largeRead = await statementsFor(large);

    const sites = present(present(largeRead.data.organization).sites).nodes;
    expect(sites).toHaveLength(4);
    for (const site of sites) {
      expect(present(site.sections).totalCount).toBe(4);
      expect(present(site.sections).nodes.filter((section) => section.default)).toHaveLength(1);
      for (const section of present(site.sections).nodes) {
        const siteSpaces = present(section.siteSpaces).nodes;
        expect(siteSpaces).toHaveLength(4);
        expect(siteSpaces.filter((siteSpace) => siteSpace.default)).toHaveLength(1);
        expect(siteSpaces[0]?.space?.viewerCanAdminister).toBe(true);
      }
      const groups = present(site.sectionGroups).nodes;
      expect(groups).toHaveLength(1);
      expect(groups[0]?.sectionList).toHaveLength(4);
      expect(present(groups[0]?.children).nodes).toHaveLength(4);
      expect(present(groups[0]?.children).totalCount).toBe(4);
      expect(present(site.siteSpaces).totalCount).toBe(16);
    }
    expect(present(present(smallRead.data.organization).sites).nodes[0]?.siteSpaces?.totalCount).toBe(1);

    expect(largeRead.statements).toBe(smallRead.statements);
    // Viewer membership, sites, sections, groups, site spaces by section and by site, the site and section rows
    // behind the `default` flags, spaces, and the space-permission loaders: one statement each, whatever the
    // fan-out (12 today).
    expect(largeRead.statements).toBeLessThanOrEqual(12);
  });
});

describe("site-space lists and their spaces", () => {
  it("read the spaces once per list only when a site-space field selects them", async () => {
    const org = await seedOrganization(t.db, "Settled spaces");
    await seedSites(org, 2);
    const client = t.graphql(org.members.admin.token);
    const statements = async (read: () => Promise<unknown>) => {
      const before = t.db.statementCount();
      await read();
      return t.db.statementCount() - before;
    };
    const paths = await statements(() => client.request(SiteSpacePaths, { id: org.organizationId }));
    const titles = await statements(() => client.request(SiteSpaceTitles, { id: org.organizationId }));
    expect(titles).toBeGreaterThan(paths);
    const answer = await client.request(SiteSpaceTitles, { id: org.organizationId });
    const site = present(present(answer.organization).sites).nodes[0];
    expect(site?.sections?.nodes[0]?.siteSpaces?.nodes.map((siteSpace) => siteSpace.space?.title)).toEqual([
      "S0-0",
      "S0-1",
    ]);
    expect(site?.siteSpaces?.nodes.map((siteSpace) => siteSpace.title).sort()).toEqual([
      "S0-0",
      "S0-1",
      "S1-0",
      "S1-1",
    ]);
  });
});

describe("the spaces of a nested read's site spaces", () => {
  it("are read as summaries when only summary fields are selected, answering what full rows answer", async () => {
    const org = await seedOrganization(t.db, "Space summaries");
    await seedSites(org, 2);
    const client = t.graphql(org.members.admin.token);
    const spaceReads: string[] = [];
    t.db.onStatement((sql) => {
      // The space reads of space-reads.ts: every column (and the Git sync), or the summary's.
      if (sql.startsWith("SELECT s.*")) spaceReads.push("full");
      if (sql.startsWith(`SELECT s."id", s."organizationId"`)) spaceReads.push("summary");
    });
    const summaries = await client.request(SpacesAsSummaries, { id: org.organizationId });
    const summaryReads = spaceReads.splice(0);
    const full = await client.request(SpacesInFull, { id: org.organizationId });
    const fullReads = spaceReads.splice(0);
    expect({ summaryReads, fullReads }).toEqual({ summaryReads: ["summary"], fullReads: ["full"] });

    const spacesOf = (data: typeof summaries) =>
      present(present(data.organization).sites).nodes.flatMap((site) =>
        present(site.sections).nodes.flatMap((section) =>
          present(section.siteSpaces).nodes.map((siteSpace) => present(siteSpace.space)),
        ),
      );
    const fullSpaces = spacesOf(full as typeof summaries) as (ReturnType<typeof spacesOf>[number] & {
      createdAt: unknown;
      updatedAt: unknown;
      mergeRules: unknown;
    })[];
    expect(fullSpaces).toHaveLength(8);
    expect(fullSpaces.every((space) => space.createdAt && space.updatedAt && space.mergeRules)).toBe(true);
    expect(spacesOf(summaries)).toEqual(
      fullSpaces.map(({ createdAt: _createdAt, updatedAt: _updatedAt, mergeRules: _mergeRules, ...space }) => space),
    );
    const summaryQuery = print(SpacesAsSummaries);
    expect([...spaceSummaryFields].filter((field) => !new RegExp(`\\b${field}\\b`).test(summaryQuery))).toEqual([]);
  });
});
