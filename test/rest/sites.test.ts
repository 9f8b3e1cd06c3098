import { beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../src/platform/ids.ts";
import { createSite } from "../factories.ts";
import { type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { expectMatchesSpec } from "../helpers/contract.ts";

let t: TestApp;
let org: SeededOrganization;
let other: SeededOrganization;
let base: string;
let admin: string;

type SiteBody = {
  id: string;
  title: string;
  type: string;
  visibility: string;
  published: boolean;
  siteSpaces: number;
  basename?: string;
  proxy?: { origin: string; target: string };
  adaptiveContent: { enabled: boolean };
  agentsContext: string;
  urls: { location: string; app: string; published?: string };
};

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "Sites Org");
  other = await seedOrganization(t.db, "Other Org");
  base = `/orgs/${org.organizationId}/sites`;
  admin = org.members.admin.token;
});

async function insertSpace(organizationId: string, title: string) {
  return t.db.prisma.space.create({
    data: { id: newId("Space"), organizationId, title, revisionId: newId("Revision") },
  });
}

describe("sites", () => {
  it("creates a site with spaces, reads, lists, updates and deletes it", async () => {
    const [guide, api] = [await insertSpace(org.organizationId, "Guide"), await insertSpace(org.organizationId, "API")];
    t.clock.advance(1000);
    const created = await createSite<SiteBody>(t, org, {
      title: "Docs",
      visibility: "unlisted",
      spaces: [guide.id, api.id],
    });
    expect(created).toMatchObject({
      object: "site",
      title: "Docs",
      type: "basic",
      appliedType: "basic",
      visibility: "unlisted",
      published: false,
      siteSpaces: 2,
      features: [],
      agentsContext: "included",
      adaptiveContent: { enabled: false },
    });
    expect(created.urls.location).toBe(`http://gateway.test/v1${base}/${created.id}`);
    expect(created.urls.published).toBeUndefined();
    const siteSpaces = await t.db.prisma.siteSpace.findMany({ where: { siteId: created.id } });
    expect(siteSpaces.map((row) => row.spaceId).sort()).toEqual([guide.id, api.id].sort());

    const read = await t.rest<SiteBody>("GET", `${base}/${created.id}`, { token: org.members.read.token });
    expect(read.status).toBe(200);
    expectMatchesSpec("getSiteById", 200, read.body);
    expect(read.body.id).toBe(created.id);

    t.clock.advance(1000);
    const defaults = await createSite<SiteBody>(t, org);
    expect(defaults).toMatchObject({ type: "basic", visibility: "public", siteSpaces: 0 });

    const list = await t.rest<{ items: SiteBody[]; count: number }>("GET", base, { token: org.members.read.token });
    expect(list.status).toBe(200);
    expectMatchesSpec("listSites", 200, list.body);
    expect(list.body.items.map((site) => site.id)).toEqual([created.id, defaults.id]);
    const bySpace = await t.rest<{ items: SiteBody[] }>("GET", base, { token: admin, query: { space: api.id } });
    expect(bySpace.body.items.map((site) => site.id)).toEqual([created.id]);
    const byTitle = await t.rest<{ items: SiteBody[] }>("GET", base, { token: admin, query: { title: "doc" } });
    expect(byTitle.body.items.map((site) => site.id)).toEqual([created.id]);
    const paged = await t.rest<{ items: SiteBody[]; next?: { page: string } }>("GET", base, {
      token: admin,
      query: { limit: 1 },
    });
    expectMatchesSpec("listSites", 200, paged.body);
    const second = await t.rest<{ items: SiteBody[]; next?: { page: string } }>("GET", base, {
      token: admin,
      query: { limit: 1, page: paged.body.next?.page },
    });
    expect(second.body.items.map((site) => site.id)).toEqual([defaults.id]);
    expect(second.body.next).toBeUndefined();

    const root = siteSpaces.find((row) => row.spaceId === api.id);
    const updated = await t.rest<SiteBody>("PATCH", `${base}/${created.id}`, {
      token: admin,
      body: {
        title: "Product docs",
        visibility: "share-link",
        basename: "docs",
        adaptiveContent: { enabled: true },
        agentsContext: "excluded",
        proxy: "example.com/docs",
        defaultSiteSpace: root?.id,
      },
    });
    expect(updated.status).toBe(200);
    expectMatchesSpec("updateSiteById", 200, updated.body);
    expect(updated.body).toMatchObject({
      title: "Product docs",
      visibility: "share-link",
      basename: "docs",
      adaptiveContent: { enabled: true },
      agentsContext: "excluded",
      proxy: { origin: "example.com/docs" },
    });
    expect((await t.db.prisma.site.findUniqueOrThrow({ where: { id: created.id } })).defaultSiteSpaceId).toBe(root?.id);
    const unproxied = await t.rest<SiteBody>("PATCH", `${base}/${created.id}`, { token: admin, body: { proxy: null } });
    expect(unproxied.status).toBe(200);
    expect(unproxied.body.proxy).toBeUndefined();

    const removed = await t.rest("DELETE", `${base}/${created.id}`, { token: admin });
    expect(removed.status).toBe(204);
    expectMatchesSpec("deleteSiteById", 204, removed.body);
    expect((await t.rest("DELETE", `${base}/${created.id}`, { token: admin })).status).toBe(204);
    expect((await t.rest("GET", `${base}/${created.id}`, { token: admin })).status).toBe(404);
    expect(await t.db.prisma.siteSpace.count({ where: { siteId: created.id } })).toBe(0);
  });

  it("refuses bad input with 400 and writes nothing", async () => {
    const before = await t.db.prisma.site.count();
    const foreignSpace = await insertSpace(other.organizationId, "Foreign");
    for (const body of [
      { title: "x" },
      { title: "x".repeat(129) },
      { visibility: "private" },
      { type: "gold" },
      { spaces: ["space_missing"] },
      { spaces: [foreignSpace.id] },
      { unknown: true },
    ]) {
      const response = await t.rest("POST", base, { token: admin, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body).toMatchObject({ error: { code: 400 } });
    }
    expect(await t.db.prisma.site.count()).toBe(before);

    t.clock.advance(1000);
    const site = await createSite<SiteBody>(t, org, { title: "Limits" });
    for (const body of [
      { title: "x" },
      { title: "x".repeat(129) },
      { visibility: "in-collection" },
      { basename: "" },
      { basename: "b".repeat(101) },
      { agentsContext: "maybe" },
      { adaptiveContent: {} },
      { proxy: "not a proxy" },
      { proxy: "example.com" },
      { proxy: `example.com/${"p".repeat(512)}` },
      { defaultSiteSpace: "sitesp_missing" },
      { defaultSiteSection: "sitesc_missing" },
      { hostname: "docs.example.com" },
    ]) {
      const response = await t.rest("PATCH", `${base}/${site.id}`, { token: admin, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
    expect((await t.rest("GET", base, { token: admin, query: { limit: 1001 } })).status).toBe(400);
  });

  it("applies the role rules", async () => {
    t.clock.advance(1000);
    const site = await createSite<SiteBody>(t, org, { title: "Roles" });
    const path = `${base}/${site.id}`;
    expect((await t.rest("GET", path)).status).toBe(401);
    expect((await t.rest("GET", path, { token: other.members.admin.token })).status).toBe(404);
    expect(
      (await t.rest("GET", `/orgs/${other.organizationId}/sites/${site.id}`, { token: other.members.admin.token }))
        .status,
    ).toBe(404);
    expect((await t.rest("GET", path, { token: org.members.guest.token })).status).toBe(403);
    expect((await t.rest("GET", path, { token: org.members.read.token })).status).toBe(200);
    expect((await t.rest("POST", base, { token: org.members.edit.token, body: {} })).status).toBe(403);
    const byCreator = await t.rest<SiteBody>("POST", base, { token: org.members.create.token, body: {} });
    expect(byCreator.status).toBe(201);
    for (const [method, suffix, body] of [
      ["PATCH", "", { title: "Nope" }],
      ["DELETE", "", undefined],
      ["POST", "/publish", undefined],
      ["POST", "/unpublish", undefined],
      ["PUT", "/adaptive-schema", { jsonSchema: { type: "object", properties: {}, additionalProperties: false } }],
      ["GET", "/share-links", undefined],
      ["POST", "/share-links", { name: "x" }],
    ] as const) {
      const response = await t.rest(method, `${path}${suffix}`, { token: org.members.create.token, body });
      expect(response.status, `${method} ${suffix}`).toBe(403);
    }
    expect((await t.rest("DELETE", path, { token: other.members.admin.token })).status).toBe(404);
    expect((await t.rest("GET", path, { token: admin })).status).toBe(200);
  });

  it("publishes and unpublishes", async () => {
    t.clock.advance(1000);
    const site = await createSite<SiteBody>(t, org, { title: "Launch" });
    const published = await t.rest<SiteBody>("POST", `${base}/${site.id}/publish`, { token: admin });
    expect(published.status).toBe(200);
    expectMatchesSpec("publishSite", 200, published.body);
    expect(published.body.published).toBe(true);
    expect(published.body.urls.published).toBe(`http://gateway.test/v1${base}/${site.id}/published`);
    const onlyPublished = await t.rest<{ items: SiteBody[] }>("GET", base, {
      token: admin,
      query: { published: true },
    });
    expect(onlyPublished.body.items.map((item) => item.id)).toEqual([site.id]);

    const unpublished = await t.rest<SiteBody>("POST", `${base}/${site.id}/unpublish`, { token: admin });
    expect(unpublished.status).toBe(200);
    expectMatchesSpec("unpublishSite", 200, unpublished.body);
    expect(unpublished.body.published).toBe(false);
    expect(unpublished.body.urls.published).toBeUndefined();
  });

  it("stores a visitor schema and suggests conditions from it", async () => {
    t.clock.advance(1000);
    const site = await createSite<SiteBody>(t, org, { title: "Adaptive" });
    const path = `${base}/${site.id}/adaptive-schema`;
    expect((await t.rest("GET", path, { token: admin })).status).toBe(404);
    const empty = await t.rest<{ items: unknown[] }>("GET", `${path}/template-conditions`, { token: admin });
    expect(empty.status).toBe(200);
    expectMatchesSpec("listSiteAdaptiveTemplateConditions", 200, empty.body);
    expect(empty.body.items).toEqual([]);

    const jsonSchema = {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: {
        isBetaUser: { type: "boolean", description: "Beta testers" },
        unsigned: {
          type: "object",
          description: "Unsigned claims of the site visitor.",
          properties: { prefersDark: { type: "boolean", description: "Dark mode fans" } },
          additionalProperties: false,
        },
      },
      additionalProperties: false,
    };
    const put = await t.rest<{ jsonSchema: unknown }>("PUT", path, { token: admin, body: { jsonSchema } });
    expect(put.status).toBe(200);
    expectMatchesSpec("updateSiteAdaptiveSchema", 200, put.body);
    expect(put.body.jsonSchema).toEqual(jsonSchema);
    const read = await t.rest("GET", path, { token: org.members.read.token });
    expect(read.status).toBe(200);
    expectMatchesSpec("getSiteAdaptiveSchema", 200, read.body);
    const conditions = await t.rest<{ items: { condition: string; description: string }[] }>(
      "GET",
      `${path}/template-conditions`,
      { token: org.members.read.token },
    );
    expectMatchesSpec("listSiteAdaptiveTemplateConditions", 200, conditions.body);
    expect(conditions.body.items).toEqual([
      { description: "Beta testers", condition: "visitor.claims.isBetaUser" },
      { description: "Dark mode fans", condition: "visitor.claims.unsigned.prefersDark" },
    ]);

    for (const bad of [
      "not an object",
      { type: "array", properties: {}, additionalProperties: false },
      { type: "object", properties: { plan: { type: "string" } }, additionalProperties: false },
      { type: "object", properties: { flag: { type: "boolean" } }, additionalProperties: false },
      { type: "object", properties: { flag: { type: "boolean", description: "f" } } },
      { type: "object", properties: { flag: { type: "boolean", description: "f" } }, additionalProperties: true },
      { type: "object", properties: { flag: { type: 12 } }, additionalProperties: false },
      {
        type: "object",
        properties: {},
        additionalProperties: false,
        $schema: "https://json-schema.org/draft/2020-12/schema",
      },
      { type: "object", properties: { unsigned: { type: "object", properties: {} } }, additionalProperties: false },
    ]) {
      const response = await t.rest("PUT", path, { token: admin, body: { jsonSchema: bad } });
      expect(response.status, JSON.stringify(bad)).toBe(400);
    }
    expect((await t.rest("PUT", path, { token: admin, body: {} })).status).toBe(400);
  });
});
