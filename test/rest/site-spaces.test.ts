import { beforeAll, describe, expect, it } from "vitest";
import { createSite, createSpace, sitePath } from "../factories.ts";
import { type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { expectMatchesSpec } from "../helpers/contract.ts";

let t: TestApp;
let org: SeededOrganization;
let admin: string;

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "Site Spaces Org");
  admin = org.members.admin.token;
});

type SiteSpaceBody = {
  id: string;
  path: string;
  section?: string;
  default: boolean;
  title: string;
  condition?: string;
  space: { id: string; title: string };
  urls: { published?: string };
};
type List<Item> = { items: Item[]; count: number; next?: { page: string } };

async function addSiteSpace(site: string, body: Record<string, unknown>) {
  const response = await t.rest<SiteSpaceBody>("POST", `${site}/site-spaces`, { token: admin, body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  expectMatchesSpec("addSpaceToSite", 201, response.body);
  return response.body;
}

async function listSiteSpaces(
  site: string,
  options: { token?: string; query?: Record<string, string | boolean> } = {},
) {
  const response = await t.rest<List<SiteSpaceBody>>("GET", `${site}/site-spaces`, {
    token: options.token ?? admin,
    query: options.query,
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  expectMatchesSpec("listSiteSpaces", 200, response.body);
  return response.body;
}

describe("site spaces", () => {
  it("adds spaces at the root with unique paths; the first is the default", async () => {
    const site = sitePath(org, (await createSite(t, org)).id);
    const space = (await createSpace(t, org, { title: "Getting Started!" })).id;
    const first = await addSiteSpace(site, { spaceId: space });
    expect(first).toMatchObject({
      object: "site-space",
      path: "getting-started",
      default: true,
      title: "Getting Started!",
    });
    expect(first.space.id).toBe(space);
    const second = await addSiteSpace(site, { spaceId: space });
    expect(second).toMatchObject({ path: "getting-started-2", default: false });

    const all = await listSiteSpaces(site, { token: org.members.read.token });
    expect(all.items.map((s) => s.id)).toEqual([first.id, second.id]);
    expect((await listSiteSpaces(site, { query: { default: true } })).items.map((s) => s.id)).toEqual([first.id]);
    expect((await listSiteSpaces(site, { query: { default: false } })).items.map((s) => s.id)).toEqual([second.id]);
    // Pages of one, then a well-formed cursor whose position is no integer: 400, not a server error.
    const firstPage = await listSiteSpaces(site, { query: { limit: "1" } });
    const nextPage = await listSiteSpaces(site, { query: { limit: "1", page: firstPage.next?.page ?? "" } });
    expect([...firstPage.items, ...nextPage.items].map((s) => s.id)).toEqual([first.id, second.id]);
    const forged = Buffer.from(
      JSON.stringify({ order: "position asc,id asc", values: ["not a number", "sitesp_x"] }),
    ).toString("base64url");
    const refused = await t.rest("GET", `${site}/site-spaces`, { token: admin, query: { page: forged } });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: { code: 400, message: "Invalid page cursor" } });
  });

  it("adds to the default section, or to a given one", async () => {
    const site = sitePath(org, (await createSite(t, org)).id);
    const s1 = await t.rest<{ id: string }>("POST", `${site}/sections`, {
      token: admin,
      body: { spaceId: (await createSpace(t, org, { title: "Main" })).id },
    });
    const s2 = await t.rest<{ id: string }>("POST", `${site}/sections`, {
      token: admin,
      body: { spaceId: (await createSpace(t, org, { title: "Other" })).id },
    });
    const toDefault = await addSiteSpace(site, { spaceId: (await createSpace(t, org, { title: "Variant" })).id });
    expect(toDefault).toMatchObject({ section: s1.body.id, default: false });
    const toSecond = await addSiteSpace(site, {
      spaceId: (await createSpace(t, org, { title: "Variant" })).id,
      sectionId: s2.body.id,
    });
    expect(toSecond.section).toBe(s2.body.id);
    for (const body of [
      {},
      { spaceId: "space_missing" },
      { spaceId: toDefault.space.id, sectionId: "sitesc_missing" },
    ]) {
      expect((await t.rest("POST", `${site}/site-spaces`, { token: admin, body })).status, JSON.stringify(body)).toBe(
        400,
      );
    }
  });

  it("updates path, condition and space within the limits", async () => {
    const site = sitePath(org, (await createSite(t, org)).id);
    const a = await addSiteSpace(site, { spaceId: (await createSpace(t, org, { title: "A space" })).id });
    const b = await addSiteSpace(site, { spaceId: (await createSpace(t, org, { title: "B space" })).id });
    const other = (await createSpace(t, org, { title: "Replacement" })).id;
    const updated = await t.rest<SiteSpaceBody>("PATCH", `${site}/site-spaces/${a.id}`, {
      token: admin,
      body: { path: "v1", condition: "visitor.claims.beta && visitor.claims.level >= 2", spaceId: other },
    });
    expect(updated.status).toBe(200);
    expectMatchesSpec("updateSiteSpaceById", 200, updated.body);
    expect(updated.body).toMatchObject({ path: "v1", condition: "visitor.claims.beta && visitor.claims.level >= 2" });
    expect(updated.body.space.id).toBe(other);
    const removed = await t.rest<SiteSpaceBody>("PATCH", `${site}/site-spaces/${a.id}`, {
      token: admin,
      body: { condition: null },
    });
    expect(removed.body.condition).toBeUndefined();
    expect(removed.body.path).toBe("v1");

    expect((await t.rest("PATCH", `${site}/site-spaces/${b.id}`, { token: admin, body: { path: "v1" } })).status).toBe(
      409,
    );
    for (const body of [
      { path: "" },
      { path: "p".repeat(101) },
      { path: "a/b" },
      { condition: "x".repeat(1025) },
      { condition: "constructor.constructor('return process')()" },
      { spaceId: "space_missing" },
      { hidden: true },
    ]) {
      const response = await t.rest("PATCH", `${site}/site-spaces/${b.id}`, { token: admin, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
    expect((await t.rest("PATCH", `${site}/site-spaces/sitesp_missing`, { token: admin, body: {} })).status).toBe(404);
  });

  it("lists each site space's published URL under its section's path, as reading it alone does", async () => {
    const siteId = (await createSite(t, org)).id;
    const site = sitePath(org, siteId);
    await addSiteSpace(site, { spaceId: (await createSpace(t, org, { title: "Root Docs" })).id });
    const section = await t.rest("POST", `${site}/sections`, {
      token: admin,
      body: { spaceId: (await createSpace(t, org, { title: "Guide" })).id, title: "Guide Part" },
    });
    expect(section.status).toBe(201);
    expect((await listSiteSpaces(site)).items.every((item) => item.urls.published === undefined)).toBe(true);

    expect((await t.rest("POST", `${site}/publish`, { token: admin })).status).toBe(200);
    const sections = await t.rest<List<{ id: string; path: string }>>("GET", `${site}/sections`, { token: admin });
    const sectionPaths = new Map(sections.body.items.map((item) => [item.id, item.path]));
    const base = `http://gateway.test/v1${site}/published`;
    const listed = (await listSiteSpaces(site)).items;
    expect(listed.length).toBe(2);
    for (const item of listed) {
      const sectionPath = item.section && sectionPaths.get(item.section);
      expect(sectionPath).toBeTruthy();
      expect(item.urls.published).toBe(`${base}/${sectionPath}/${item.path}`);
      // Answered on its own (an empty update: not settled with a list), the same URL and default flag.
      const alone = await t.rest<SiteSpaceBody>("PATCH", `${site}/site-spaces/${item.id}`, { token: admin, body: {} });
      expect(alone.status).toBe(200);
      expect({ urls: alone.body.urls, default: alone.body.default }).toEqual({
        urls: item.urls,
        default: item.default,
      });
    }
  });

  it("deletes, handing the default to the next site space", async () => {
    const site = sitePath(org, (await createSite(t, org)).id);
    const a = await addSiteSpace(site, { spaceId: (await createSpace(t, org, { title: "First" })).id });
    const b = await addSiteSpace(site, { spaceId: (await createSpace(t, org, { title: "Second" })).id });
    const removed = await t.rest("DELETE", `${site}/site-spaces/${a.id}`, { token: admin });
    expect(removed.status).toBe(204);
    expectMatchesSpec("deleteSiteSpaceById", 204, removed.body);
    expect((await t.rest("DELETE", `${site}/site-spaces/${a.id}`, { token: admin })).status).toBe(204);
    expect((await listSiteSpaces(site)).items.map((s) => [s.id, s.default])).toEqual([[b.id, true]]);
  });

  it("hides site spaces whose space is deleted", async () => {
    const site = sitePath(org, (await createSite(t, org)).id);
    const gone = (await createSpace(t, org, { title: "Gone soon" })).id;
    const hidden = await addSiteSpace(site, { spaceId: gone });
    const kept = await addSiteSpace(site, { spaceId: (await createSpace(t, org, { title: "Kept" })).id });
    expect((await t.rest("DELETE", `/spaces/${gone}`, { token: admin })).status).toBe(204);
    const list = await listSiteSpaces(site);
    // The hidden one was the default: the next live one stands in.
    expect(list.items.map((s) => [s.id, s.default])).toEqual([[kept.id, true]]);
    expect(list.count).toBe(1);
    expect((await listSiteSpaces(site, { query: { default: true } })).items.map((s) => s.id)).toEqual([kept.id]);
    expect((await t.rest("PATCH", `${site}/site-spaces/${hidden.id}`, { token: admin, body: {} })).status).toBe(404);
    expect((await t.rest("POST", `/spaces/${gone}/restore`, { token: admin })).status).toBe(200);
    const restored = await listSiteSpaces(site);
    expect(restored.items.map((s) => [s.id, s.default])).toEqual([
      [hidden.id, true],
      [kept.id, false],
    ]);
  });

  it("moves a site space among its siblings (moveSiteSpace)", async () => {
    const site = sitePath(org, (await createSite(t, org)).id);
    const a = await addSiteSpace(site, { spaceId: (await createSpace(t, org, { title: "Aa" })).id });
    const b = await addSiteSpace(site, { spaceId: (await createSpace(t, org, { title: "Bb" })).id });
    const moved = await t.rest<SiteSpaceBody>("POST", `${site}/site-spaces/${b.id}/move`, {
      token: admin,
      body: { position: { before: { type: "site-space", siteSpace: a.id } } },
    });
    expect(moved.status).toBe(200);
    expectMatchesSpec("moveSiteSpace", 200, moved.body);
    expect((await listSiteSpaces(site)).items.map((s) => s.id)).toEqual([b.id, a.id]);
    const toEnd = await t.rest("POST", `${site}/site-spaces/${b.id}/move`, { token: admin, body: {} });
    expect(toEnd.status).toBe(200);
    expect((await listSiteSpaces(site)).items.map((s) => s.id)).toEqual([a.id, b.id]);
    const bad = await t.rest("POST", `${site}/site-spaces/${b.id}/move`, {
      token: admin,
      body: { position: { before: { type: "site-section", siteSpace: a.id } } },
    });
    expect(bad.status).toBe(400);
  });

  it("opens the lists to an active share key of a published share-link site", async () => {
    const site = sitePath(org, (await createSite(t, org, { visibility: "share-link" })).id);
    const spaceId = (await createSpace(t, org, { title: "Shared" })).id;
    await t.rest("POST", `${site}/sections`, { token: admin, body: { spaceId } });
    expect((await t.rest("POST", `${site}/publish`, { token: admin })).status).toBe(200);
    const link = await t.rest<{ id: string; urls: { published: string } }>("POST", `${site}/share-links`, {
      token: admin,
      body: { name: "partners" },
    });
    expect(link.status).toBe(201);
    const shareKey = new URL(link.body.urls.published).searchParams.get("shareKey") as string;

    // A caller outside the organization (the key, not the token, opens the site).
    const outsider = (await seedOrganization(t.db, "Outsiders")).members.admin.token;
    const spaces = await t.rest<List<SiteSpaceBody>>("GET", `${site}/site-spaces`, {
      token: outsider,
      query: { shareKey },
    });
    expect(spaces.status, JSON.stringify(spaces.body)).toBe(200);
    expectMatchesSpec("listSiteSpaces", 200, spaces.body);
    expect(spaces.body.items).toHaveLength(1);
    const sections = await t.rest("GET", `${site}/sections`, { token: outsider, query: { shareKey } });
    expect(sections.status).toBe(200);
    expectMatchesSpec("listSiteSections", 200, sections.body);

    expect((await t.rest("GET", `${site}/site-spaces`, { query: { shareKey: "wrong" } })).status).toBe(404);
    expect((await t.rest("GET", `${site}/site-spaces`, { token: outsider })).status).toBe(404);
    expect((await t.rest("GET", `${site}/site-spaces`)).status).toBe(401);
    await t.rest("PATCH", `${site}/share-links/${link.body.id}`, { token: admin, body: { active: false } });
    expect((await t.rest("GET", `${site}/sections`, { token: outsider, query: { shareKey } })).status).toBe(404);
  });

  it("lets only admins change site spaces", async () => {
    const site = sitePath(org, (await createSite(t, org)).id);
    const a = await addSiteSpace(site, { spaceId: (await createSpace(t, org, { title: "Guarded" })).id });
    for (const role of ["create", "review", "read"] as const) {
      const token = org.members[role].token;
      expect((await t.rest("POST", `${site}/site-spaces`, { token, body: { spaceId: a.space.id } })).status).toBe(403);
      expect((await t.rest("PATCH", `${site}/site-spaces/${a.id}`, { token, body: {} })).status).toBe(403);
      expect((await t.rest("DELETE", `${site}/site-spaces/${a.id}`, { token })).status).toBe(403);
      expect((await t.rest("POST", `${site}/site-spaces/${a.id}/move`, { token, body: {} })).status).toBe(403);
    }
  });
});

describe("site-space paths in the database", () => {
  it("are unique per section and per site root: a second row with a taken path is refused", async () => {
    const spaceId = (await createSpace(t, org, { title: "Unique Path" })).id;
    const site = sitePath(org, (await createSite(t, org)).id);
    const siteId = site.split("/").at(-1) as string;
    const first = await addSiteSpace(site, { spaceId });
    const duplicate = { siteId, sectionId: null, spaceId, path: first.path };
    await expect(t.db.prisma.siteSpace.create({ data: { id: "sitesp_dup_root", ...duplicate } })).rejects.toMatchObject(
      {
        code: "P2002",
      },
    );

    const sectioned = sitePath(org, (await createSite(t, org)).id);
    const section = await t.rest<{ id: string }>("POST", `${sectioned}/sections`, { token: admin, body: { spaceId } });
    const inSection = await t.db.prisma.siteSpace.findFirstOrThrow({ where: { sectionId: section.body.id } });
    await expect(
      t.db.prisma.siteSpace.create({
        data: { ...inSection, id: "sitesp_dup_section", createdAt: new Date() },
      }),
    ).rejects.toMatchObject({ code: "P2002" });
    // Another section of the same site may use the path.
    const other = await t.rest<{ id: string }>("POST", `${sectioned}/sections`, { token: admin, body: { spaceId } });
    expect(other.status).toBe(201);
    expect(await t.db.prisma.siteSpace.count({ where: { siteId: inSection.siteId, path: inSection.path } })).toBe(2);
  });
});
