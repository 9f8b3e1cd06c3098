import { beforeAll, describe, expect, it } from "vitest";
import type { SearchSpaceHit } from "../../src/modules/search/search.service.ts";
import { type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { editContent } from "../helpers/content.ts";

// Organization search paged with its cursor (REST `limit` and `page`): every space once, in rank order, across
// pages; ties of score kept in a stable order; a space the viewer may not read on no page at all.

type SpaceHit = Omit<SearchSpaceHit, "pages"> & { pages: { id: string; title: string; score: number }[] };

interface List<Item> {
  items: Item[];
  count: number;
  next?: { page: string };
}

let t: TestApp;
let org: SeededOrganization;
let admin: string;
/** The spaces a READ member may read, each with pages that mention the word. */
const open: string[] = [];
/** By space, the id of its first page. */
const firstPage = new Map<string, string>();
let hidden: string;

async function newSpace(title: string, markdown: string[]): Promise<string> {
  const space = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/spaces`, {
    token: admin,
    body: { title },
  });
  expect(space.status).toBe(201);
  const written = await editContent(
    t,
    admin,
    `/spaces/${space.body.id}/content`,
    markdown.map((body, index) => ({ type: "insert", page: { title: `Page ${index + 1}`, markdown: body } })),
  );
  firstPage.set(space.body.id, written.inserted[0]?.id as string);
  return space.body.id;
}

function searchOrg(query: Record<string, string | number | undefined>, token = admin) {
  return t.rest<List<SpaceHit>>("GET", `/orgs/${org.organizationId}/search`, { token, query });
}

/** Every page of an organization search of `word`, `limit` hits at a time; the ids in order, and the pages read. */
async function pageThrough(word: string, limit: number, token = admin) {
  const ids: string[] = [];
  const counts = new Set<number>();
  let page: string | undefined;
  let pages = 0;
  do {
    const response = await searchOrg({ query: word, limit, page }, token);
    expect(response.status).toBe(200);
    expect(response.body.items.length).toBeLessThanOrEqual(limit);
    ids.push(...response.body.items.map((space) => space.id));
    counts.add(response.body.count);
    page = response.body.next?.page;
    pages += 1;
  } while (page);
  return { ids, pages, counts: [...counts] };
}

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "Paged search");
  admin = org.members.admin.token;
  // More mentions rank higher: space k mentions the word k times in one page.
  for (let mentions = 1; mentions <= 4; mentions++) {
    open.push(await newSpace(`Mentions ${mentions}`, [`${"The nebula glows. ".repeat(mentions)}`, "Nothing here."]));
  }
  // Three spaces with the same page: equal scores, which the cursor must page through without losing or repeating.
  for (const copy of [1, 2, 3]) open.push(await newSpace(`Same ${copy}`, ["The nebula glows."]));
  // The best match of all (the word in a page title), in a space members without a grant may not read.
  hidden = await newSpace("Observatory", ["Telescope notes."]);
  await editContent(t, admin, `/spaces/${hidden}/content`, [
    { type: "insert", page: { title: "Nebula catalogue", markdown: "Every nebula we saw." } },
  ]);
  const patched = await t.rest("PATCH", `/spaces/${hidden}`, { token: admin, body: { defaultLevel: null } });
  expect(patched.status).toBe(200);
});

describe("organization search across pages", () => {
  it("ranks spaces by their best page: a title match first, then by mentions, ties by space id", async () => {
    const response = await searchOrg({ query: "nebula" });
    expect(response.status).toBe(200);
    const { items, count } = response.body;
    expect(count).toBe(open.length + 1);
    expect(items[0]?.id).toBe(hidden);
    expect(items[0]?.pages.map((page) => page.title)).toEqual(["Nebula catalogue"]);
    const mentions = items.filter((space) => space.title.startsWith("Mentions")).map((space) => space.title);
    expect(mentions).toEqual(["Mentions 4", "Mentions 3", "Mentions 2", "Mentions 1"]);
    const same = items.filter((space) => space.title.startsWith("Same"));
    expect(new Set(same.map((space) => space.score)).size).toBe(1);
    expect(same.map((space) => space.id)).toEqual(same.map((space) => space.id).sort());
    const scores = items.map((space) => space.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it("pages through every space once, in the order of one page of all, whatever the page size", async () => {
    const all = (await searchOrg({ query: "nebula", limit: 50 })).body.items.map((space) => space.id);
    expect(all).toHaveLength(open.length + 1);
    for (const limit of [1, 2, 3]) {
      const paged = await pageThrough("nebula", limit);
      expect(paged.ids, `limit ${limit}`).toEqual(all);
      expect(paged.pages).toBe(Math.ceil(all.length / limit));
      expect(paged.counts).toEqual([all.length]);
    }
  });

  it("never shows a READ member the space they may not read, on any page", async () => {
    const reader = org.members.read.token;
    const paged = await pageThrough("nebula", 2, reader);
    expect(paged.ids).not.toContain(hidden);
    expect(new Set(paged.ids)).toEqual(new Set(open));
    expect(paged.ids).toHaveLength(open.length);
    expect(paged.counts).toEqual([open.length]);
    // Granted the space, the member finds it first, as the admin does.
    const granted = await t.rest("POST", `/spaces/${hidden}/permissions`, {
      token: admin,
      body: { role: "read", users: [org.members.read.id] },
    });
    expect(granted.status).toBe(204);
    expect((await searchOrg({ query: "nebula", limit: 1 }, reader)).body.items.map((space) => space.id)).toEqual([
      hidden,
    ]);
  });

  it("finds an edit merged through a change request, and no longer the text it replaced", async () => {
    const [target] = open;
    const changeRequest = await t.rest<{ id: string }>("POST", `/spaces/${target}/change-requests`, {
      token: admin,
      body: { subject: "Rename the word" },
    });
    expect(changeRequest.status).toBe(201);
    await editContent(t, admin, `/spaces/${target}/change-requests/${changeRequest.body.id}/content`, [
      { type: "update", pageId: firstPage.get(target as string), page: { markdown: "The quasar flares." } },
    ]);
    const found = async (word: string) => (await searchOrg({ query: word })).body.items.map((space) => space.id);
    expect(await found("quasar")).toEqual([]);
    expect(await found("nebula")).toContain(target);
    const merged = await t.rest("POST", `/spaces/${target}/change-requests/${changeRequest.body.id}/merge`, {
      token: admin,
    });
    expect(merged.status).toBe(200);
    expect(await found("quasar")).toEqual([target]);
    expect(await found("nebula")).not.toContain(target);
  });
});
