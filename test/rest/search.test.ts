import { beforeAll, describe, expect, it } from "vitest";
import { Prisma } from "../../src/db/generated/client.ts";
import type { SearchPageHit, SearchSectionHit, SearchSpaceHit } from "../../src/modules/search/search.service.ts";
import { rankedCandidatesSql } from "../../src/modules/search/search-ranking.ts";
import { baseUrl, type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { expectMatchesSpec } from "../helpers/contract.ts";

/** Hits as REST answers them: with their sections, without what the service keeps to find them. */
type PageHit = Omit<SearchPageHit, "text" | "node"> & { sections: SearchSectionHit[] };
type SpaceHit = Omit<SearchSpaceHit, "pages"> & { pages: PageHit[] };

let t: TestApp;
let org: SeededOrganization;
let admin: string;

interface List<Item> {
  items: Item[];
  count: number;
  next?: { page: string };
}

async function newSpace(title: string): Promise<string> {
  const space = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/spaces`, {
    token: admin,
    body: { title },
  });
  expect(space.status).toBe(201);
  return space.body.id;
}

async function insertPages(spaceId: string, pages: Record<string, unknown>[]): Promise<string[]> {
  const response = await t.rest<{ inserted: { id: string }[] }>("POST", `/spaces/${spaceId}/content`, {
    token: admin,
    body: { changes: pages.map((page) => ({ type: "insert", page })) },
  });
  expect(response.status).toBe(200);
  return response.body.inserted.map((entry) => entry.id);
}

function searchSpace(spaceId: string, query: Record<string, string | number | undefined>, token = admin) {
  return t.rest<List<PageHit>>("GET", `/spaces/${spaceId}/search`, { token, query });
}

function searchOrg(query: Record<string, string | number | undefined>, token = admin) {
  return t.rest<List<SpaceHit>>("GET", `/orgs/${org.organizationId}/search`, { token, query });
}

const installationGuide = [
  "Before you begin, check the requirements.",
  "",
  "## Download the installer",
  "",
  "Fetch the archive for your platform from the releases page.",
  "",
  "## Configure the proxy",
  "",
  "Set the `HTTPS_PROXY` variable when your network has a proxy.",
  "",
].join("\n");

let handbook: string;
let ids: Record<string, string>;

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "Search Org");
  admin = org.members.admin.token;
  handbook = await newSpace("Handbook");
  const [guides, reference] = await insertPages(handbook, [
    { title: "Guides", markdown: "Step by step guides for every task." },
    { title: "Reference", markdown: "Every option, listed." },
  ]);
  const [installation, upgrading, faq] = await insertPages(handbook, [
    { title: "Installation", parent: guides, markdown: installationGuide },
    {
      title: "Upgrading",
      parent: guides,
      // Mentions installation many times in the body: still ranked below the page titled Installation.
      markdown: "Upgrading replaces an installation. Back up the installation, then rerun the installation steps.",
    },
    { title: "FAQ", parent: reference, markdown: "## Why is the proxy ignored?\n\nThe proxy is read at start-up." },
  ]);
  const [network] = await insertPages(handbook, [
    { title: "Network", parent: installation, markdown: "Ports to open for the installation to reach the registry." },
  ]);
  ids = {
    guides: guides as string,
    reference: reference as string,
    installation: installation as string,
    upgrading: upgrading as string,
    faq: faq as string,
    network: network as string,
  };
});

describe("GET /spaces/{spaceId}/search", () => {
  it("finds the pages, title matches first, with sections, ancestors and urls (public spec shape)", async () => {
    const response = await searchSpace(handbook, { query: "installation" });
    expect(response.status).toBe(200);
    expectMatchesSpec("searchSpaceContent", 200, response.body);
    const { items, count } = response.body;
    expect(items[0]?.id).toBe(ids.installation);
    expect(new Set(items.map((hit) => hit.id))).toEqual(new Set([ids.installation, ids.upgrading, ids.network]));
    expect(count).toBe(3);
    expect(items[0]?.score).toBeGreaterThan(items[1]?.score as number);
    const [first] = items;
    expect(first).toMatchObject({
      title: "Installation",
      path: "guides/installation",
      ancestors: [{ title: "Guides" }],
      urls: { app: `${baseUrl}/v1/spaces/${handbook}/content/page/${ids.installation}` },
    });
    const network = items.find((hit) => hit.id === ids.network);
    expect(network?.ancestors).toEqual([{ title: "Guides" }, { title: "Installation" }]);
    expect(network?.path).toBe("guides/installation/network");
  });

  it("lists only the sections that match, split at headings, best first", async () => {
    const response = await searchSpace(handbook, { query: "proxy" });
    expect(response.status).toBe(200);
    const installation = response.body.items.find((hit) => hit.id === ids.installation);
    expect(installation?.sections).toEqual([
      {
        id: "configure-the-proxy",
        title: "Configure the proxy",
        path: "guides/installation#configure-the-proxy",
        body: "Set the HTTPS_PROXY variable when your network has a proxy.",
        score: expect.any(Number),
        urls: { app: `${baseUrl}/v1/spaces/${handbook}/content/page/${ids.installation}#configure-the-proxy` },
      },
    ]);
    const faq = response.body.items.find((hit) => hit.id === ids.faq);
    expect(faq?.sections.map((section) => section.id)).toEqual(["why-is-the-proxy-ignored"]);
    expect(faq?.ancestors).toEqual([{ title: "Reference" }]);
  });

  it("understands stemming and phrases, and ranks a title match above many body mentions", async () => {
    const stemmed = await searchSpace(handbook, { query: "installing" });
    expect(stemmed.body.items[0]?.id).toBe(ids.installation);
    const phrase = await searchSpace(handbook, { query: '"releases page"' });
    expect(phrase.body.items.map((hit) => hit.id)).toEqual([ids.installation]);
    const excluded = await searchSpace(handbook, { query: "installation -upgrading" });
    expect(excluded.body.items.map((hit) => hit.id)).not.toContain(ids.upgrading);
  });

  it("pages through the hits with limit and the next page token, without repeats", async () => {
    const all = await searchSpace(handbook, { query: "installation" });
    const seen: string[] = [];
    let page: string | undefined;
    let calls = 0;
    do {
      const response = await searchSpace(handbook, { query: "installation", limit: 2, page });
      expect(response.status).toBe(200);
      expect(response.body.count).toBe(3);
      seen.push(...response.body.items.map((hit) => hit.id));
      page = response.body.next?.page;
      calls += 1;
    } while (page);
    expect(calls).toBe(2);
    expect(seen).toEqual(all.body.items.map((hit) => hit.id));
    const none = await searchSpace(handbook, { query: "installation", limit: 0 });
    expect(none.body).toEqual({ items: [], count: 3 });
  });

  it("answers 400 without a query, with an empty or too long one, and with a forged page token", async () => {
    for (const query of [{}, { query: "" }, { query: "   " }, { query: "x".repeat(513) }]) {
      const response = await searchSpace(handbook, query);
      expect(response.status, JSON.stringify(query)).toBe(400);
      expect(response.body).toMatchObject({ error: { code: 400, message: expect.any(String) } });
    }
    const forged = Buffer.from(JSON.stringify({ order: "score desc,pageId asc", values: ["not-a-score", 1] })).toString(
      "base64url",
    );
    expect((await searchSpace(handbook, { query: "proxy", page: forged })).status).toBe(400);
    expect((await searchSpace(handbook, { query: "proxy", page: "%%%" })).status).toBe(400);
  });

  it("answers 200 to hostile query strings", async () => {
    for (const query of ["'&|!:*()", "!!", "a:*", "<->", "\\", '\'; DROP TABLE "Space"; --', "or", "-", '"', "the"]) {
      const response = await searchSpace(handbook, { query });
      expect(response.status, query).toBe(200);
      expectMatchesSpec("searchSpaceContent", 200, response.body);
    }
  });

  it("searches only the current revision", async () => {
    const response = await t.rest("POST", `/spaces/${handbook}/content`, {
      token: admin,
      body: { changes: [{ type: "update", pageId: ids.faq, page: { markdown: "Answers about quokkas." } }] },
    });
    expect(response.status).toBe(200);
    expect((await searchSpace(handbook, { query: "quokkas" })).body.items.map((hit) => hit.id)).toEqual([ids.faq]);
    expect((await searchSpace(handbook, { query: "ignored" })).body.items).toEqual([]);
  });
});

describe("the search table follows each space's current revision", () => {
  it("through change requests, merges, deleted pages, duplicates and deleted spaces", async () => {
    const hitsOf = async (query: string) => (await searchOrg({ query })).body.items.map((space) => space.id);
    const ocean = await newSpace("Ocean");
    const [guide] = await insertPages(ocean, [{ title: "Narwhal guide", markdown: "Narwhals swim in the Arctic." }]);
    expect(await hitsOf("narwhal")).toEqual([ocean]);

    const changeRequest = await t.rest<{ id: string }>("POST", `/spaces/${ocean}/change-requests`, {
      token: admin,
      body: { subject: "Whales" },
    });
    const written = await t.rest<{ inserted: { id: string }[] }>(
      "POST",
      `/spaces/${ocean}/change-requests/${changeRequest.body.id}/content`,
      {
        token: admin,
        body: {
          changes: [
            { type: "update", pageId: guide, page: { markdown: "Belugas sing under the ice." } },
            { type: "insert", page: { title: "Orca notes", markdown: "Orcas hunt in pods." } },
          ],
        },
      },
    );
    expect(written.status).toBe(200);
    // A change request's content is not the space's until merged.
    expect(await hitsOf("beluga")).toEqual([]);
    expect(await hitsOf("arctic")).toEqual([ocean]);
    const merged = await t.rest("POST", `/spaces/${ocean}/change-requests/${changeRequest.body.id}/merge`, {
      token: admin,
    });
    expect(merged.status).toBe(200);
    expect(await hitsOf("beluga")).toEqual([ocean]);
    expect(await hitsOf("orca")).toEqual([ocean]);
    expect(await hitsOf("arctic")).toEqual([]);

    const orca = written.body.inserted[0]?.id;
    const deleted = await t.rest("POST", `/spaces/${ocean}/content`, {
      token: admin,
      body: { changes: [{ type: "delete", pageId: orca }] },
    });
    expect(deleted.status).toBe(200);
    expect(await hitsOf("orca")).toEqual([]);

    const copy = await t.rest<{ id: string }>("POST", `/spaces/${ocean}/duplicate`, { token: admin });
    expect(copy.status).toBe(201);
    expect((await hitsOf("beluga")).sort()).toEqual([ocean, copy.body.id].sort());
    expect((await searchSpace(copy.body.id, { query: "beluga" })).body.items.map((hit) => hit.title)).toEqual([
      "Narwhal guide",
    ]);
    expect((await t.rest("DELETE", `/spaces/${copy.body.id}`, { token: admin })).status).toBe(204);
    expect(await hitsOf("beluga")).toEqual([ocean]);
  });
});

describe("access", () => {
  let privateSpace: string;
  let deletedSpace: string;

  beforeAll(async () => {
    privateSpace = await newSpace("Secret plans");
    await insertPages(privateSpace, [{ title: "Zeppelin launch", markdown: "The zeppelin launches at dawn." }]);
    const patched = await t.rest("PATCH", `/spaces/${privateSpace}`, { token: admin, body: { defaultLevel: null } });
    expect(patched.status).toBe(200);
    deletedSpace = await newSpace("Old zeppelin notes");
    await insertPages(deletedSpace, [{ title: "Zeppelin history", markdown: "Zeppelins of the past." }]);
  });

  it("groups organization hits per space, best space first (public spec shape)", async () => {
    const open = await newSpace("Airships");
    await insertPages(open, [{ title: "Blimps", markdown: "A blimp is not a zeppelin." }]);
    const response = await searchOrg({ query: "zeppelin" });
    expect(response.status).toBe(200);
    expectMatchesSpec("searchOrganizationContent", 200, response.body);
    const spaces = response.body.items;
    // Both spaces with a page titled Zeppelin come before the one that only mentions it in a body.
    const titled = spaces.slice(0, 2).map((space) => space.title);
    expect(titled.sort()).toEqual(["Old zeppelin notes", "Secret plans"]);
    expect(spaces[2]?.title).toBe("Airships");
    const scores = spaces.map((space) => space.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(spaces.find((space) => space.id === privateSpace)).toMatchObject({
      type: "space",
      pages: [{ title: "Zeppelin launch" }],
    });
    expect(spaces.map((space) => space.score)).toEqual(spaces.map((space) => space.pages[0]?.score));
    expect(response.body.count).toBe(3);
  });

  it("costs the same SQL statements whatever the number of spaces and pages in the results", async () => {
    const statementsOf = async (query: string) => {
      const before = t.db.statementCount();
      const response = await searchOrg({ query });
      return { statements: t.db.statementCount() - before, spaces: response.body.items.length };
    };
    const one = await statementsOf("blimp");
    const three = await statementsOf("zeppelin");
    expect([one.spaces, three.spaces]).toEqual([1, 3]);
    expect(three.statements).toBe(one.statements);
    expect(one.statements).toBeLessThanOrEqual(10);
  });

  it("shows a member only the spaces they may read; a reader of one space does not see another", async () => {
    const reader = org.members.read.token;
    const titles = async (token: string) =>
      (await searchOrg({ query: "zeppelin" }, token)).body.items.map((space) => space.title);
    expect(await titles(reader)).not.toContain("Secret plans");
    expect((await searchSpace(privateSpace, { query: "zeppelin" }, reader)).status).toBe(404);
    // A guest sees nothing until invited to one space, then only that one.
    expect(await titles(org.members.guest.token)).toEqual([]);
    const invited = await t.rest("POST", `/spaces/${privateSpace}/permissions`, {
      token: admin,
      body: { role: "read", users: [org.members.guest.id] },
    });
    expect(invited.status).toBe(204);
    expect(await titles(org.members.guest.token)).toEqual(["Secret plans"]);
    expect((await searchSpace(privateSpace, { query: "zeppelin" }, org.members.guest.token)).status).toBe(200);
  });

  it("never shows a deleted space", async () => {
    expect((await t.rest("DELETE", `/spaces/${deletedSpace}`, { token: admin })).status).toBe(204);
    const titles = (await searchOrg({ query: "zeppelin" })).body.items.map((space) => space.title);
    expect(titles).not.toContain("Old zeppelin notes");
    expect(titles).toContain("Secret plans");
    expect((await searchSpace(deletedSpace, { query: "zeppelin" })).status).toBe(404);
  });

  it("answers 404 to outsiders and 401 without a token", async () => {
    const other = await seedOrganization(t.db, "Outsiders");
    expect((await searchOrg({ query: "zeppelin" }, other.members.admin.token)).status).toBe(404);
    expect((await searchSpace(handbook, { query: "proxy" }, other.members.admin.token)).status).toBe(404);
    const anonymous = await t.app.fetch(new Request(`${baseUrl}/v1/spaces/${handbook}/search?query=proxy`));
    expect(anonymous.status).toBe(401);
  });
});

describe("on hundreds of pages", () => {
  it("finds the right page first and the query uses the full-text index", async () => {
    const book = await newSpace("Big book");
    const topics = ["routing", "caching", "logging", "metrics", "tracing", "billing", "storage", "queues"];
    for (let batch = 0; batch < 6; batch++) {
      await insertPages(
        book,
        Array.from({ length: 50 }, (_, index) => {
          const topic = topics[(batch * 50 + index) % topics.length] as string;
          return {
            title: `Chapter ${batch * 50 + index} on ${topic}`,
            markdown: `## Overview\n\nThis chapter explains ${topic} in depth, with examples of ${topic}.\n`,
          };
        }),
      );
    }
    const [target] = await insertPages(book, [
      { title: "Kubernetes operator", markdown: "## Helm chart\n\nDeploy the operator with the helm chart." },
    ]);
    const response = await searchSpace(book, { query: "kubernetes operator", limit: 5 });
    expect(response.body.items[0]?.id).toBe(target);
    expect(response.body.count).toBe(1);
    const routing = await searchSpace(book, { query: "routing", limit: 10 });
    expect(routing.body.count).toBe(38);
    expect(routing.body.items).toHaveLength(10);

    // The plan: another space's 6000 current pages make the search table large enough for the planner to weigh the
    // index against a scan (written in SQL, as a fixture, and analyzed as autovacuum would).
    const filler = await newSpace("Filler");
    await t.db.prisma.$executeRaw`
      INSERT INTO "SearchPage" ("spaceId", "pageId", "organizationId", "versionId", "searchVector", "updatedAt")
      SELECT ${filler}, 'page_filler' || g, ${org.organizationId}, 'pv_filler' || g,
        to_tsvector('english', 'Chapter ' || g || ' ' || repeat('This chapter explains routing in depth. ', 20)), now()
      FROM generate_series(1, 6000) AS g`;
    await t.db.prisma.$executeRaw`ANALYZE "SearchPage"`;
    await t.db.prisma.$executeRaw`ANALYZE "Space"`;
    const planOf = async (query: string) => {
      const scope = Prisma.sql`sp."organizationId" = ${org.organizationId} AND s."deletedAt" IS NULL`;
      const plan = await t.db.prisma.$queryRaw<{ "QUERY PLAN": string }[]>`
        EXPLAIN WITH ${rankedCandidatesSql(query, scope, 1000)} SELECT * FROM ranked`;
      return plan.map((row) => row["QUERY PLAN"]).join("\n");
    };
    // A rare query is found through the GIN index; a word in 6000 pages is read in the order that bounds it, so
    // PostgreSQL stops after the bound instead of ranking every match.
    expect(await planOf("kubernetes operator")).toContain('Bitmap Index Scan on "SearchPage_searchVector_idx"');
    expect(await planOf("routing")).toContain(
      'Index Scan using "SearchPage_organizationId_updatedAt_spaceId_pageId_idx"',
    );
  });
});
