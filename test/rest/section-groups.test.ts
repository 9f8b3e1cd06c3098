import { beforeAll, describe, expect, it } from "vitest";
import { type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { expectMatchesSpec } from "../helpers/contract.ts";

let t: TestApp;
let org: SeededOrganization;
let admin: string;

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "Groups Org");
  admin = org.members.admin.token;
});

type Item = { object: string; id: string; children?: Item[]; sections?: Item[]; sectionGroup?: string };
type GroupBody = Item & { title: string; icon?: string; sections: Item[]; children: Item[] };
type List<T> = { items: T[]; count: number };

async function siteWithSections(count: number) {
  const site = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/sites`, { token: admin, body: {} });
  const base = `/orgs/${org.organizationId}/sites/${site.body.id}`;
  const sections: string[] = [];
  for (let i = 0; i < count; i++) {
    const space = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/spaces`, {
      token: admin,
      body: { title: `Space ${i}` },
    });
    const section = await t.rest<{ id: string }>("POST", `${base}/sections`, {
      token: admin,
      body: { spaceId: space.body.id },
    });
    sections.push(section.body.id);
  }
  return { base, sections };
}

async function structure(base: string) {
  const response = await t.rest<{ type: string; structure: Item[] }>("GET", `${base}/structure`, { token: admin });
  expect(response.status).toBe(200);
  expectMatchesSpec("getSiteStructure", 200, response.body);
  const ids = (items: Item[]): unknown[] => items.map((i) => (i.children ? [i.id, ids(i.children)] : i.id));
  return ids(response.body.structure);
}

describe("site section groups", () => {
  it("adds, lists, renames and deletes groups; sections move in and out", async () => {
    const { base, sections } = await siteWithSections(3);
    const [a, b, c] = sections as [string, string, string];
    const created = await t.rest<GroupBody>("POST", `${base}/section-groups`, {
      token: admin,
      body: { title: "Products", icon: "box", sections: [b, c] },
    });
    expect(created.status).toBe(201);
    expectMatchesSpec("addSectionGroupToSite", 201, created.body);
    const group = created.body;
    expect(group).toMatchObject({ object: "site-section-group", title: "Products", icon: "box" });
    expect(group.children.map((i) => i.id)).toEqual([b, c]);
    expect(await structure(base)).toEqual([a, [group.id, [b, c]]]);

    const nested = await t.rest<GroupBody>("POST", `${base}/section-groups`, {
      token: admin,
      body: { title: "Nested", parent: group.id },
    });
    expect(nested.status).toBe(201);
    expect(nested.body.sectionGroup).toBe(group.id);
    const tooDeep = await t.rest("POST", `${base}/section-groups`, {
      token: admin,
      body: { title: "Deeper", parent: nested.body.id },
    });
    expect(tooDeep.status).toBe(400);

    const added = await t.rest<GroupBody>("POST", `${base}/section-groups/${nested.body.id}/sections`, {
      token: admin,
      body: { sectionId: a },
    });
    expect(added.status).toBe(201);
    expectMatchesSpec("addSectionToGroup", 201, added.body);
    expect(await structure(base)).toEqual([[group.id, [b, c, [nested.body.id, [a]]]]]);

    const list = await t.rest<List<GroupBody>>("GET", `${base}/section-groups`, { token: org.members.read.token });
    expect(list.status).toBe(200);
    expectMatchesSpec("listSiteSectionGroups", 200, list.body);
    expect(list.body.items.map((g) => g.id).sort()).toEqual([group.id, nested.body.id].sort());

    const renamed = await t.rest<GroupBody>("PATCH", `${base}/section-groups/${group.id}`, {
      token: admin,
      body: { title: "Catalog", icon: null },
    });
    expect(renamed.status).toBe(200);
    expectMatchesSpec("updateSiteSectionGroupById", 200, renamed.body);
    expect(renamed.body.title).toBe("Catalog");
    expect(renamed.body.icon).toBeUndefined();

    const out = await t.rest("DELETE", `${base}/section-groups/${group.id}/sections/${b}`, { token: admin });
    expect(out.status).toBe(204);
    expectMatchesSpec("removeSectionFromGroup", 204, out.body);
    expect(await structure(base)).toEqual([[group.id, [c, [nested.body.id, [a]]]], b]);
    expect((await t.rest("DELETE", `${base}/section-groups/${group.id}/sections/${b}`, { token: admin })).status).toBe(
      204,
    );

    const deleted = await t.rest("DELETE", `${base}/section-groups/${group.id}`, { token: admin });
    expect(deleted.status).toBe(204);
    expectMatchesSpec("deleteSiteSectionGroupById", 204, deleted.body);
    expect(await structure(base)).toEqual([c, [nested.body.id, [a]], b]);
    expect((await t.rest("DELETE", `${base}/section-groups/${group.id}`, { token: admin })).status).toBe(204);
  });

  it("validates bodies and moves groups (400 bad position, 404 no group)", async () => {
    const { base, sections } = await siteWithSections(2);
    const [a, b] = sections as [string, string];
    for (const body of [{}, { title: "" }, { title: "t".repeat(101) }, { title: "G", sections: ["sitesc_nope"] }]) {
      const response = await t.rest("POST", `${base}/section-groups`, { token: admin, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
    const group = await t.rest<GroupBody>("POST", `${base}/section-groups`, { token: admin, body: { title: "G" } });
    expect(await structure(base)).toEqual([a, b, [group.body.id, []]]);
    const moved = await t.rest<GroupBody>("POST", `${base}/section-groups/${group.body.id}/move`, {
      token: admin,
      body: { position: { before: { type: "site-section", id: a } } },
    });
    expect(moved.status).toBe(200);
    expectMatchesSpec("moveSiteSectionGroup", 200, moved.body);
    expect(await structure(base)).toEqual([[group.body.id, []], a, b]);
    const bad = await t.rest("POST", `${base}/section-groups/${group.body.id}/move`, {
      token: admin,
      body: { position: { before: { type: "site-section", id: "sitesc_nope" } } },
    });
    expect(bad.status).toBe(400);
    const missing = await t.rest("POST", `${base}/section-groups/sitesg_nope/move`, { token: admin, body: {} });
    expect(missing.status).toBe(404);
    expect(
      (await t.rest("PATCH", `${base}/section-groups/${group.body.id}`, { token: admin, body: { title: "" } })).status,
    ).toBe(400);
    expect(
      (await t.rest("POST", `${base}/section-groups/${group.body.id}/sections`, { token: admin, body: {} })).status,
    ).toBe(400);
    for (const role of ["create", "read"] as const) {
      const token = org.members[role].token;
      expect((await t.rest("POST", `${base}/section-groups`, { token, body: { title: "x" } })).status).toBe(403);
      expect((await t.rest("DELETE", `${base}/section-groups/${group.body.id}`, { token })).status).toBe(403);
    }
  });

  it("sorts the structure (sortSiteStructure)", async () => {
    const { base, sections } = await siteWithSections(3);
    const [a, b, c] = sections as [string, string, string];
    const sorted = await t.rest<Item>("PATCH", `${base}/structure/sort`, {
      token: admin,
      body: { item: { type: "site-section", id: c }, position: { before: { type: "site-section", id: a } } },
    });
    expect(sorted.status).toBe(200);
    expectMatchesSpec("sortSiteStructure", 200, sorted.body);
    expect(sorted.body).toMatchObject({ object: "site-section", id: c });
    expect(await structure(base)).toEqual([c, a, b]);
    const toEnd = await t.rest("PATCH", `${base}/structure/sort`, {
      token: admin,
      body: { item: { type: "site-section", id: c }, position: {} },
    });
    expect(toEnd.status).toBe(200);
    expect(await structure(base)).toEqual([a, b, c]);
    const missing = await t.rest("PATCH", `${base}/structure/sort`, {
      token: admin,
      body: { item: { type: "site-space", id: "sitesp_nope" }, position: {} },
    });
    expect(missing.status).toBe(404);
    const bad = await t.rest("PATCH", `${base}/structure/sort`, {
      token: admin,
      body: { item: { type: "page", id: a } },
    });
    expect(bad.status).toBe(400);
  });
});
