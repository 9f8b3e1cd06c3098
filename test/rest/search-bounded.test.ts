import { beforeAll, describe, expect, it } from "vitest";
import { type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { expectMatchesSpec } from "../helpers/contract.ts";

// A search ranks a bounded set of candidates (SEARCH_CANDIDATES, here 4): the query's most recently edited title
// matches and its most recently edited matches. A word in more pages than that answers those, in a stable order.

interface Hit {
  id: string;
  title: string;
  score: number;
}
interface SpaceHit extends Hit {
  pages: Hit[];
}
interface List<Item> {
  items: Item[];
  count: number;
  next?: { page: string };
}

const bound = 4;
let t: TestApp;
let org: SeededOrganization;
let admin: string;
let almanac: string;
let vault: string;
/** Almanac's pages by title. */
const pages = new Map<string, string>();

async function newSpace(title: string): Promise<string> {
  const space = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/spaces`, {
    token: admin,
    body: { title },
  });
  expect(space.status).toBe(201);
  return space.body.id;
}

/** One page, written a minute after the previous one: pages are edited in the order they are added. */
async function addPage(spaceId: string, title: string, markdown: string): Promise<string> {
  t.clock.advance(60_000);
  const response = await t.rest<{ inserted: { id: string }[] }>("POST", `/spaces/${spaceId}/content`, {
    token: admin,
    body: { changes: [{ type: "insert", page: { title, markdown } }] },
  });
  expect(response.status).toBe(200);
  return response.body.inserted[0]?.id as string;
}

function search<Item>(path: string, query: Record<string, string | number | undefined>, token = admin) {
  return t.rest<List<Item>>("GET", path, { token, query });
}

/** Every item of a search, paged through `limit` at a time, with the count of each page. */
async function pagedThrough<Item>(path: string, query: string, limit: number, token = admin) {
  const items: Item[] = [];
  const counts = new Set<number>();
  let page: string | undefined;
  do {
    const response = await search<Item>(path, { query, limit, page }, token);
    expect(response.status).toBe(200);
    items.push(...response.body.items);
    counts.add(response.body.count);
    page = response.body.next?.page;
  } while (page);
  return { items, counts };
}

const graphqlCount = /* GraphQL */ `
  query BoundedCount($organizationId: ID!, $spaceId: ID!, $query: String!) {
    organization(id: $organizationId) { searchOrganizationContent(query: $query) { totalCount totalCountIsExact } }
    space(id: $spaceId) { searchSpaceContent(query: $query) { totalCount totalCountIsExact } }
  }
`;
interface BoundedCount {
  organization: { searchOrganizationContent: { totalCount: number; totalCountIsExact: boolean } };
  space: { searchSpaceContent: { totalCount: number; totalCountIsExact: boolean } };
}

beforeAll(async () => {
  t = await startTestApp({ env: { SEARCH_CANDIDATES: String(bound) } });
  org = await seedOrganization(t.db, "Bounded Search");
  admin = org.members.admin.token;
  almanac = await newSpace("Almanac");
  vault = await newSpace("Vault");
  const patched = await t.rest("PATCH", `/spaces/${vault}`, { token: admin, body: { defaultLevel: null } });
  expect(patched.status).toBe(200);
  // Oldest first: a title match of "orbit", a rare word's two pages, then notes that mention the orbit.
  pages.set("Comet orbits", await addPage(almanac, "Comet orbits", "Where the comet goes."));
  pages.set("Eclipse season", await addPage(almanac, "Eclipse season", "When the moon hides the sun."));
  for (let note = 1; note <= 9; note++) {
    const body = note === 1 ? "An orbit note, on the eclipse of 1999." : `An orbit note, number ${note}.`;
    pages.set(`Note ${note}`, await addPage(almanac, `Note ${note}`, body));
  }
  // The most recently edited matches of all are in a space the READ member may not read.
  for (let note = 1; note <= 5; note++) await addPage(vault, `Vault ${note}`, "The vault's orbit.");
});

describe("a word in more pages than a search ranks", () => {
  it("answers its title matches and most recently edited matches, title matches first, and counts those", async () => {
    const response = await search<Hit>(`/spaces/${almanac}/search`, { query: "orbit" });
    expect(response.status).toBe(200);
    expectMatchesSpec("searchSpaceContent", 200, response.body);
    const titles = response.body.items.map((hit) => hit.title);
    expect(titles[0]).toBe("Comet orbits");
    // Of nine notes and the title match, the four most recent notes and the title match.
    expect(titles.slice(1).sort()).toEqual(["Note 6", "Note 7", "Note 8", "Note 9"]);
    expect(response.body.count).toBe(bound + 1);
  });

  it("pages the bounded set by a stable cursor: no page repeats or skips a hit", async () => {
    const whole = await search<Hit>(`/spaces/${almanac}/search`, { query: "orbit", limit: 50 });
    const paged = await pagedThrough<Hit>(`/spaces/${almanac}/search`, "orbit", 2);
    expect(paged.items.map((hit) => hit.id)).toEqual(whole.body.items.map((hit) => hit.id));
    expect(paged.counts).toEqual(new Set([bound + 1]));
    const again = await pagedThrough<Hit>(`/spaces/${almanac}/search`, "orbit", 2);
    expect(again.items).toEqual(paged.items);

    const spaces = await pagedThrough<SpaceHit>(`/orgs/${org.organizationId}/search`, "orbit", 1);
    const wholeSpaces = await search<SpaceHit>(`/orgs/${org.organizationId}/search`, { query: "orbit" });
    expect(spaces.items.map((space) => space.id)).toEqual(wholeSpaces.body.items.map((space) => space.id));
    expect(new Set(spaces.items.map((space) => space.id)).size).toBe(spaces.items.length);
    expect(spaces.counts).toEqual(new Set([wholeSpaces.body.count]));
  });

  it("ranks across the organization the most recently edited matches the viewer may read", async () => {
    const asAdmin = await search<SpaceHit>(`/orgs/${org.organizationId}/search`, { query: "orbit" });
    expectMatchesSpec("searchOrganizationContent", 200, asAdmin.body);
    // The title match first; the vault's four most recent pages are the most recent matches.
    expect(asAdmin.body.items.map((space) => space.title)).toEqual(["Almanac", "Vault"]);
    expect(asAdmin.body.items[0]?.pages.map((hit) => hit.title)).toEqual(["Comet orbits"]);
    expect(asAdmin.body.items[1]?.pages.map((hit) => hit.title).sort()).toEqual([
      "Vault 2",
      "Vault 3",
      "Vault 4",
      "Vault 5",
    ]);
    expect(asAdmin.body.count).toBe(2);

    // The READ member's bound is spent on what it may read: the vault's pages are filtered out before it.
    const asReader = await search<SpaceHit>(
      `/orgs/${org.organizationId}/search`,
      { query: "orbit" },
      org.members.read.token,
    );
    expect(asReader.status).toBe(200);
    expect(asReader.body.items.map((space) => space.title)).toEqual(["Almanac"]);
    const readerTitles = asReader.body.items[0]?.pages.map((hit) => hit.title) ?? [];
    expect(readerTitles[0]).toBe("Comet orbits");
    expect(readerTitles.slice(1).sort()).toEqual(["Note 6", "Note 7", "Note 8", "Note 9"]);
    expect(asReader.body.count).toBe(1);
    expect((await search(`/spaces/${vault}/search`, { query: "orbit" }, org.members.read.token)).status).toBe(404);
  });

  it("says over GraphQL that its count is bounded", async () => {
    const client = t.graphql(admin);
    const common = await client.request<BoundedCount>(graphqlCount, {
      organizationId: org.organizationId,
      spaceId: almanac,
      query: "orbit",
    });
    expect(common.organization.searchOrganizationContent).toEqual({ totalCount: 2, totalCountIsExact: false });
    expect(common.space.searchSpaceContent).toEqual({ totalCount: bound + 1, totalCountIsExact: false });
    const rare = await client.request<BoundedCount>(graphqlCount, {
      organizationId: org.organizationId,
      spaceId: almanac,
      query: "eclipse",
    });
    expect(rare.organization.searchOrganizationContent).toEqual({ totalCount: 1, totalCountIsExact: true });
    expect(rare.space.searchSpaceContent).toEqual({ totalCount: 2, totalCountIsExact: true });
  });
});

describe("a word in fewer pages than the bound", () => {
  it("ranks every match exactly, however old: the title match first", async () => {
    const response = await search<Hit>(`/spaces/${almanac}/search`, { query: "eclipse" });
    expect(response.body.items.map((hit) => hit.id)).toEqual([pages.get("Eclipse season"), pages.get("Note 1")]);
    expect(response.body.items[0]?.score).toBeGreaterThan(1);
    expect(response.body.items[1]?.score).toBeLessThan(1);
    expect(response.body.count).toBe(2);
  });

  it("costs the same statements as a word in more pages than the bound", async () => {
    const statementsOf = async (query: string) => {
      const before = t.db.statementCount();
      const response = await search<SpaceHit>(`/orgs/${org.organizationId}/search`, { query });
      expect(response.status).toBe(200);
      return t.db.statementCount() - before;
    };
    expect(await statementsOf("eclipse")).toBe(await statementsOf("orbit"));
  });
});
