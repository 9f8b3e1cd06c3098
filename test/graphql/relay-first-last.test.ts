import { beforeAll, describe, expect, it } from "vitest";
import { type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";

interface Connection {
  totalCount: number;
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean };
  edges: { cursor: string; node: { title: string } }[];
}

let t: TestApp;
let org: SeededOrganization;
let siteId: string;
let spaceTitles: string[];
let siteSpaceTitles: string[];

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "Relay Org");
  const token = org.members.admin.token;
  const spaceIds: string[] = [];
  for (const title of ["Alpha", "Bravo", "Charlie", "Delta", "Echo"]) {
    const space = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/spaces`, {
      token,
      body: { title },
    });
    spaceIds.push(space.body.id);
  }
  const site = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/sites`, {
    token,
    body: { title: "Relay Docs", spaces: spaceIds },
  });
  siteId = site.body.id;
  // The lists in their own order (spaces by creation; site spaces by position), to compare pages with.
  spaceTitles = (await spaces({ first: 10 })).edges.map((edge) => edge.node.title);
  siteSpaceTitles = (await siteSpaces({ first: 10 })).edges.map((edge) => edge.node.title);
  expect(spaceTitles).toHaveLength(5);
  expect(siteSpaceTitles).toHaveLength(5);
});

const connectionSelection = "totalCount pageInfo { hasNextPage hasPreviousPage } edges { cursor node { title } }";

async function spaces(variables: Record<string, unknown>): Promise<Connection> {
  const data = await t.graphql(org.members.admin.token).request<{ organization: { spaces: Connection } }>(
    `query($id: ID!, $first: Int, $last: Int, $after: String) {
      organization(id: $id) { spaces(first: $first, last: $last, after: $after) { ${connectionSelection} } }
    }`,
    { id: org.organizationId, ...variables },
  );
  return data.organization.spaces;
}

/** Site spaces are read in hand-written SQL (paginateSql); spaces through Prisma (paginate). */
async function siteSpaces(variables: Record<string, unknown>): Promise<Connection> {
  const data = await t.graphql(org.members.admin.token).request<{
    organization: { site: { siteSpaces: Connection } };
  }>(
    `query($id: ID!, $siteId: ID!, $first: Int, $last: Int, $after: String) {
      organization(id: $id) {
        site(id: $siteId) { siteSpaces(first: $first, last: $last, after: $after) { ${connectionSelection} } }
      }
    }`,
    { id: org.organizationId, siteId, ...variables },
  );
  return data.organization.site.siteSpaces;
}

const titles = (connection: Connection) => connection.edges.map((edge) => edge.node.title);

describe.each([
  { list: "organization.spaces (Prisma)", read: spaces, all: () => spaceTitles },
  { list: "site.siteSpaces (SQL)", read: siteSpaces, all: () => siteSpaceTitles },
])("first and last together on $list follow Relay's algorithm", ({ read, all }) => {
  it("returns the last `last` of the first `first`", async () => {
    const page = await read({ first: 4, last: 2 });
    expect(titles(page)).toEqual(all().slice(2, 4));
    // More than `first` rows follow, and more than `last`.
    expect(page.pageInfo).toEqual({ hasNextPage: true, hasPreviousPage: true });
    expect(page.totalCount).toBe(5);
  });

  it("applies both after a cursor", async () => {
    const start = await read({ first: 1 });
    const page = await read({ after: start.edges[0]?.cursor, first: 3, last: 5 });
    expect(titles(page)).toEqual(all().slice(1, 4));
    // Four rows after the cursor: more than `first`, not more than `last`.
    expect(page.pageInfo).toEqual({ hasNextPage: true, hasPreviousPage: false });
  });

  it("returns the whole list when both cover it, and nothing for last: 0", async () => {
    const whole = await read({ first: 5, last: 5 });
    expect(titles(whole)).toEqual(all());
    expect(whole.pageInfo).toEqual({ hasNextPage: false, hasPreviousPage: false });
    expect(titles(await read({ first: 3, last: 0 }))).toEqual([]);
  });

  it("keeps `first` alone and `last` alone as they were", async () => {
    expect(titles(await read({ first: 2 }))).toEqual(all().slice(0, 2));
    expect(titles(await read({ last: 2 }))).toEqual(all().slice(3));
  });
});
