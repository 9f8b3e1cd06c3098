import { beforeAll, describe, expect, it } from "vitest";
import { hashToken } from "../../src/auth/tokens.ts";
import { type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { expectMatchesSpec } from "../helpers/contract.ts";

let t: TestApp;
let org: SeededOrganization;
let other: SeededOrganization;
let admin: string;
let siteBase: string;

type ShareLinkBody = { id: string; name?: string; active: boolean; createdAt: string; urls: { published: string } };

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "Share Org");
  other = await seedOrganization(t.db, "Other Org");
  admin = org.members.admin.token;
  const site = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/sites`, {
    token: admin,
    body: { title: "Shared", visibility: "share-link" },
  });
  siteBase = `/orgs/${org.organizationId}/sites/${site.body.id}`;
});

describe("site share links", () => {
  it("creates, lists, renames, revokes and deletes share links", async () => {
    const created = await t.rest<ShareLinkBody>("POST", `${siteBase}/share-links`, {
      token: admin,
      body: { name: "Partners" },
    });
    expect(created.status).toBe(201);
    expectMatchesSpec("createSiteShareLink", 201, created.body);
    expect(created.body).toMatchObject({ object: "share-link", name: "Partners", active: true });
    const key = new URL(created.body.urls.published).searchParams.get("shareKey") ?? "";
    expect(key).toMatch(/^[0-9A-Za-z]{40}$/);
    expect(created.body.urls.published).toBe(`http://gateway.test/v1${siteBase}/published?shareKey=${key}`);
    const stored = await t.db.prisma.shareLink.findUniqueOrThrow({ where: { id: created.body.id } });
    expect(stored.keyHash).toBe(hashToken(key));
    expect(JSON.stringify(stored)).not.toContain(key);

    t.clock.advance(1000);
    const second = await t.rest<ShareLinkBody>("POST", `${siteBase}/share-links`, { token: admin, body: { name: "" } });
    expect(second.status).toBe(201);
    expect(new URL(second.body.urls.published).searchParams.get("shareKey")).not.toBe(key);

    const list = await t.rest<{ items: ShareLinkBody[]; count: number }>("GET", `${siteBase}/share-links`, {
      token: admin,
    });
    expect(list.status).toBe(200);
    expectMatchesSpec("listSiteShareLinks", 200, list.body);
    expect(list.body.items.map((link) => link.id)).toEqual([created.body.id, second.body.id]);
    expect(list.body.count).toBe(2);
    const searched = await t.rest<{ items: ShareLinkBody[] }>("GET", `${siteBase}/share-links`, {
      token: admin,
      query: { search: "partn" },
    });
    expect(searched.body.items.map((link) => link.id)).toEqual([created.body.id]);

    const revoked = await t.rest<ShareLinkBody>("PATCH", `${siteBase}/share-links/${created.body.id}`, {
      token: admin,
      body: { active: false, name: "Former partners" },
    });
    expect(revoked.status).toBe(200);
    expectMatchesSpec("updateSiteShareLinkById", 200, revoked.body);
    expect(revoked.body).toMatchObject({ active: false, name: "Former partners" });

    const removed = await t.rest("DELETE", `${siteBase}/share-links/${created.body.id}`, { token: admin });
    expect(removed.status).toBe(204);
    expectMatchesSpec("deleteSiteShareLinkById", 204, removed.body);
    expect((await t.rest("DELETE", `${siteBase}/share-links/${created.body.id}`, { token: admin })).status).toBe(204);
    expect(
      (await t.rest("PATCH", `${siteBase}/share-links/${created.body.id}`, { token: admin, body: { active: true } }))
        .status,
    ).toBe(404);
  });

  it("refuses bad input, outsiders and non-admins", async () => {
    for (const body of [{}, { name: "n".repeat(51) }, { name: 3 }, { name: "ok", key: "chosen" }]) {
      const response = await t.rest("POST", `${siteBase}/share-links`, { token: admin, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
    const link = await t.rest<ShareLinkBody>("POST", `${siteBase}/share-links`, { token: admin, body: { name: "x" } });
    for (const body of [{}, { active: "no" }, { name: "n".repeat(51) }]) {
      const response = await t.rest("PATCH", `${siteBase}/share-links/${link.body.id}`, { token: admin, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
    expect((await t.rest("GET", `${siteBase}/share-links`)).status).toBe(401);
    expect((await t.rest("GET", `${siteBase}/share-links`, { token: org.members.read.token })).status).toBe(403);
    expect((await t.rest("GET", `${siteBase}/share-links`, { token: other.members.admin.token })).status).toBe(404);
    expect(
      (await t.rest("DELETE", `${siteBase}/share-links/${link.body.id}`, { token: org.members.create.token })).status,
    ).toBe(403);
    expect(await t.db.prisma.shareLink.count({ where: { id: link.body.id } })).toBe(1);
  });
});
