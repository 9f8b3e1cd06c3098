import { beforeAll, describe, expect, it } from "vitest";
import { createSite, createSpace, sitePath } from "../factories.ts";
import { type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { expectMatchesSpec } from "../helpers/contract.ts";

let t: TestApp;
let org: SeededOrganization;
let other: SeededOrganization;
let admin: string;

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "Structure Org");
  other = await seedOrganization(t.db, "Other Org");
  admin = org.members.admin.token;
});

type SiteSpaceBody = {
  id: string;
  path: string;
  section?: string;
  default?: boolean;
  title: string;
  condition?: string;
};
type SectionBody = {
  id: string;
  title: string;
  path: string;
  default: boolean;
  condition?: string;
  icon?: string;
  description?: string;
  sectionGroup?: string;
  siteSpaces: SiteSpaceBody[];
};
type List<Item> = { items: Item[]; count: number; next?: { page: string } };

async function addSection(site: string, body: Record<string, unknown>) {
  const response = await t.rest<SectionBody>("POST", `${site}/sections`, { token: admin, body });
  expect(response.status).toBe(201);
  expectMatchesSpec("addSectionToSite", 201, response.body);
  return response.body;
}

async function listSections(site: string, token = admin) {
  const response = await t.rest<List<SectionBody>>("GET", `${site}/sections`, { token });
  expect(response.status).toBe(200);
  expectMatchesSpec("listSiteSections", 200, response.body);
  return response.body;
}

describe("site sections", () => {
  it("adds sections with a first site space; the first section is the default", async () => {
    const site = sitePath(org, (await createSite(t, org, { title: "Docs" })).id);
    const guide = (await createSpace(t, org, { title: "User Guide" })).id;
    const api = (await createSpace(t, org, { title: "API Reference" })).id;
    const first = await addSection(site, { spaceId: guide });
    expect(first).toMatchObject({ object: "site-section", title: "User Guide", path: "user-guide", default: true });
    expect(first.siteSpaces).toHaveLength(1);
    expect(first.siteSpaces[0]).toMatchObject({ path: "user-guide", default: true, section: first.id });
    const second = await addSection(site, { spaceId: api, title: "API", icon: "code" });
    expect(second).toMatchObject({ title: "API", path: "api", default: false, icon: "code" });
    // Same title again: the path stays unique within the site.
    const third = await addSection(site, { spaceId: api, title: "API" });
    expect(third.path).toBe("api-2");

    const list = await listSections(site, org.members.read.token);
    expect(list.count).toBe(3);
    expect(list.items.map((s) => s.id)).toEqual([first.id, second.id, third.id]);
    expect(list.items.filter((s) => s.default).map((s) => s.id)).toEqual([first.id]);

    const page = await t.rest<List<SectionBody>>("GET", `${site}/sections`, { token: admin, query: { limit: 2 } });
    expect(page.body.items).toHaveLength(2);
    const rest = await t.rest<List<SectionBody>>("GET", `${site}/sections`, {
      token: admin,
      query: { limit: 2, page: page.body.next?.page },
    });
    expect(rest.body.items.map((s) => s.id)).toEqual([third.id]);
  });

  it("moves root site spaces into a first section when a site gets sections", async () => {
    const one = (await createSpace(t, org, { title: "One" })).id;
    const two = (await createSpace(t, org, { title: "Two" })).id;
    const site = sitePath(org, (await createSite(t, org, { title: "Root Site" })).id);
    const rootSpace = await t.rest<SiteSpaceBody>("POST", `${site}/site-spaces`, {
      token: admin,
      body: { spaceId: one },
    });
    expect(rootSpace.status).toBe(201);
    expect(rootSpace.body.default).toBe(true);
    expect(rootSpace.body.section).toBeUndefined();
    await addSection(site, { spaceId: two });
    const list = await listSections(site);
    expect(list.items.map((s) => [s.title, s.default, s.siteSpaces.map((ss) => [ss.id, ss.default])])).toEqual([
      ["Root Site", true, [[rootSpace.body.id, true]]],
      ["Two", false, [[expect.any(String), true]]],
    ]);
  });

  it("updates a section within the limits", async () => {
    const site = sitePath(org, (await createSite(t, org)).id);
    const s1 = await addSection(site, { spaceId: (await createSpace(t, org, { title: "Alpha" })).id });
    const s2 = await addSection(site, { spaceId: (await createSpace(t, org, { title: "Beta" })).id });
    const extra = await t.rest<SiteSpaceBody>("POST", `${site}/site-spaces`, {
      token: admin,
      body: { spaceId: (await createSpace(t, org, { title: "Alpha v2" })).id, sectionId: s1.id },
    });
    expect(extra.status).toBe(201);
    expect(extra.body).toMatchObject({ section: s1.id, default: false });

    const updated = await t.rest<SectionBody>("PATCH", `${site}/sections/${s1.id}`, {
      token: admin,
      body: {
        title: "Alpha docs",
        path: "alpha",
        defaultSiteSpace: extra.body.id,
        condition: 'visitor.claims.plan == "pro"',
        icon: "book",
        description: "The alpha product",
      },
    });
    expect(updated.status).toBe(200);
    expectMatchesSpec("updateSiteSectionById", 200, updated.body);
    expect(updated.body).toMatchObject({
      title: "Alpha docs",
      path: "alpha",
      condition: 'visitor.claims.plan == "pro"',
      icon: "book",
      description: "The alpha product",
    });
    expect(updated.body.siteSpaces.find((ss) => ss.default)?.id).toBe(extra.body.id);

    // Omitted leaves unchanged; null removes.
    const cleared = await t.rest<SectionBody>("PATCH", `${site}/sections/${s1.id}`, {
      token: admin,
      body: { condition: null, icon: null, description: null },
    });
    expect(cleared.status).toBe(200);
    expect(cleared.body.condition).toBeUndefined();
    expect(cleared.body.icon).toBeUndefined();
    expect(cleared.body.description).toBeUndefined();
    expect(cleared.body.title).toBe("Alpha docs");

    const taken = await t.rest("PATCH", `${site}/sections/${s2.id}`, { token: admin, body: { path: "alpha" } });
    expect(taken.status).toBe(409);

    for (const body of [
      { title: "x" },
      { title: "x".repeat(129) },
      { path: "" },
      { path: "p".repeat(101) },
      { path: "has space" },
      { condition: "c".repeat(1025) },
      { condition: "visitor.claims.a ==" },
      { icon: "i".repeat(51) },
      { description: "d".repeat(257) },
      { defaultSiteSpace: "sitesp_missing" },
      { unknown: 1 },
    ]) {
      const response = await t.rest<{ error: { code: number } }>("PATCH", `${site}/sections/${s2.id}`, {
        token: admin,
        body,
      });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.code).toBe(400);
    }
    expect((await t.rest("PATCH", `${site}/sections/sitesc_missing`, { token: admin, body: {} })).status).toBe(404);
  });

  it("refuses bad bodies when adding", async () => {
    const site = sitePath(org, (await createSite(t, org)).id);
    const space = (await createSpace(t, org, { title: "Valid" })).id;
    const foreign = (await createSpace(t, other, { title: "Foreign" })).id;
    for (const body of [
      {},
      { spaceId: "space_missing" },
      { spaceId: foreign },
      { spaceId: space, title: "x" },
      { spaceId: space, icon: "i".repeat(51) },
    ]) {
      const response = await t.rest("POST", `${site}/sections`, { token: admin, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
  });

  it("deletes a section with its site spaces and hands the default on", async () => {
    const site = sitePath(org, (await createSite(t, org)).id);
    const s1 = await addSection(site, { spaceId: (await createSpace(t, org, { title: "First" })).id });
    const s2 = await addSection(site, { spaceId: (await createSpace(t, org, { title: "Second" })).id });
    const removed = await t.rest("DELETE", `${site}/sections/${s1.id}`, { token: admin });
    expect(removed.status).toBe(204);
    expectMatchesSpec("deleteSiteSectionById", 204, removed.body);
    expect(await t.db.prisma.siteSpace.count({ where: { sectionId: s1.id } })).toBe(0);
    expect((await t.rest("DELETE", `${site}/sections/${s1.id}`, { token: admin })).status).toBe(204);
    const list = await listSections(site);
    expect(list.items.map((s) => [s.id, s.default])).toEqual([[s2.id, true]]);
  });

  it("moves a section before or after another (moveSiteSection)", async () => {
    const site = sitePath(org, (await createSite(t, org)).id);
    const a = await addSection(site, { spaceId: (await createSpace(t, org, { title: "Aa" })).id });
    const b = await addSection(site, { spaceId: (await createSpace(t, org, { title: "Bb" })).id });
    const c = await addSection(site, { spaceId: (await createSpace(t, org, { title: "Cc" })).id });
    const moved = await t.rest<SectionBody>("POST", `${site}/sections/${c.id}/move`, {
      token: admin,
      body: { position: { before: { type: "site-section", siteSection: a.id } } },
    });
    expect(moved.status).toBe(200);
    expectMatchesSpec("moveSiteSection", 200, moved.body);
    expect((await listSections(site)).items.map((s) => s.id)).toEqual([c.id, a.id, b.id]);
    await t.rest("POST", `${site}/sections/${c.id}/move`, {
      token: admin,
      body: { position: { after: { type: "site-section", siteSection: b.id } } },
    });
    expect((await listSections(site)).items.map((s) => s.id)).toEqual([a.id, b.id, c.id]);
    const bad = await t.rest("POST", `${site}/sections/${c.id}/move`, {
      token: admin,
      body: { position: { after: { type: "site-section", siteSection: "sitesc_nope" } } },
    });
    expect(bad.status).toBe(400);
  });

  it("lets org readers list and only admins change the structure", async () => {
    const site = sitePath(org, (await createSite(t, org)).id);
    const section = await addSection(site, { spaceId: (await createSpace(t, org, { title: "Roles" })).id });
    await listSections(site, org.members.read.token);
    for (const role of ["create", "edit", "read"] as const) {
      const token = org.members[role].token;
      expect((await t.rest("POST", `${site}/sections`, { token, body: { spaceId: "x" } })).status).toBe(403);
      expect((await t.rest("PATCH", `${site}/sections/${section.id}`, { token, body: {} })).status).toBe(403);
      expect((await t.rest("DELETE", `${site}/sections/${section.id}`, { token })).status).toBe(403);
    }
    expect((await t.rest("GET", `${site}/sections`, { token: other.members.admin.token })).status).toBe(404);
    expect((await t.rest("GET", `${site}/sections`)).status).toBe(401);
  });
});
