import { SignJWT } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../src/platform/ids.ts";
import { graphql } from "../generated/gql.ts";
import { type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { expectMatchesSpec } from "../helpers/contract.ts";
import { present } from "../helpers/present.ts";

let t: TestApp;
let org: SeededOrganization;
let other: SeededOrganization;
let admin: string;
let sites: string;

type PublishedBody = {
  object: string;
  site: { id: string };
  structure: { type: string; structure: { id: string; space?: { id: string } }[] };
};

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "Published Org");
  other = await seedOrganization(t.db, "Other Org");
  admin = org.members.admin.token;
  sites = `/orgs/${org.organizationId}/sites`;
});

/** A site (with one space when `withSpace`), published unless told otherwise. */
async function publishedSite(visibility: string, { publish = true, withSpace = false } = {}) {
  const space = await t.db.prisma.space.create({
    data: { id: newId("Space"), organizationId: org.organizationId, title: "Guide", revisionId: newId("Revision") },
  });
  const site = await t.rest<{ id: string }>("POST", sites, {
    token: admin,
    body: { title: `A ${visibility} site`, visibility, spaces: withSpace ? [space.id] : [] },
  });
  expect(site.status).toBe(201);
  if (publish) expect((await t.rest("POST", `${sites}/${site.body.id}/publish`, { token: admin })).status).toBe(200);
  return { siteId: site.body.id, spaceId: space.id, path: `${sites}/${site.body.id}/published` };
}

function readPublished(path: string, options: { token?: string; shareKey?: string } = {}) {
  return t.rest<PublishedBody>("GET", path, { token: options.token, query: { shareKey: options.shareKey } });
}

const visitorAuthKeyQuery = graphql(`
  query SiteVisitorAuthKey($organizationId: ID!, $siteId: ID!) {
    organization(id: $organizationId) { site(id: $siteId) { visitorAuthKey } }
  }
`);

async function visitorAuthKey(siteId: string): Promise<string> {
  const data = await t.graphql(admin).request(visitorAuthKeyQuery, { organizationId: org.organizationId, siteId });
  return present(present(data.organization).site).visitorAuthKey ?? "";
}

function visitorJwt(key: string, claims: Record<string, unknown> = {}, expiresAt = "2027-01-01T00:00:00Z") {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: "HS256" })
    .setIssuedAt(new Date("2026-01-01T00:00:00Z"))
    .setExpirationTime(new Date(expiresAt))
    .sign(new TextEncoder().encode(key));
}

describe("published content", () => {
  it("opens public and unlisted published sites to anyone", async () => {
    for (const visibility of ["public", "unlisted"]) {
      const { siteId, path } = await publishedSite(visibility);
      const response = await readPublished(path);
      expect(response.status).toBe(200);
      expectMatchesSpec("getPublishedContentSite", 200, response.body);
      expect(response.body.object).toBe("published-content-site");
      expect(response.body.site.id).toBe(siteId);
      expect(response.body.structure).toEqual({ type: "siteSpaces", structure: [] });
    }
  });

  it("shows members and anonymous visitors the site's structure", async () => {
    const { spaceId, path } = await publishedSite("public", { withSpace: true });
    for (const token of [org.members.read.token, undefined]) {
      const response = await readPublished(path, { token });
      expect(response.status, token ? "member" : "anonymous").toBe(200);
      expectMatchesSpec("getPublishedContentSite", 200, response.body);
      expect(response.body.structure.type).toBe("siteSpaces");
      expect(response.body.structure.structure.map((item) => item.space?.id)).toEqual([spaceId]);
    }
  });

  it("hides unpublished sites from everyone but members", async () => {
    const { path } = await publishedSite("public", { publish: false });
    expect((await readPublished(path)).status).toBe(404);
    expect((await readPublished(path, { token: other.members.admin.token })).status).toBe(404);
    const member = await readPublished(path, { token: org.members.read.token });
    expect(member.status).toBe(200);
    expectMatchesSpec("getPublishedContentSite", 200, member.body);
    expect((await readPublished(`${sites}/site_missing/published`)).status).toBe(404);
    expect((await readPublished(`/orgs/${other.organizationId}/sites/${path.split("/")[4]}/published`)).status).toBe(
      404,
    );
  });

  it("opens share-link sites to the key of an active link only", async () => {
    const { siteId, path } = await publishedSite("share-link");
    const link = await t.rest<{ id: string; urls: { published: string } }>("POST", `${sites}/${siteId}/share-links`, {
      token: admin,
      body: { name: "Reviewers" },
    });
    const shareKey = new URL(link.body.urls.published).searchParams.get("shareKey") ?? "";

    expect((await readPublished(path)).status).toBe(404);
    expect((await readPublished(path, { shareKey: "wrong" })).status).toBe(404);
    const opened = await readPublished(path, { shareKey });
    expect(opened.status).toBe(200);
    expectMatchesSpec("getPublishedContentSite", 200, opened.body);

    // A key of another site opens nothing here.
    const elsewhere = await publishedSite("share-link");
    const foreign = await t.rest<{ urls: { published: string } }>("POST", `${sites}/${elsewhere.siteId}/share-links`, {
      token: admin,
      body: { name: "Other" },
    });
    const foreignKey = new URL(foreign.body.urls.published).searchParams.get("shareKey") ?? "";
    expect((await readPublished(path, { shareKey: foreignKey })).status).toBe(404);

    await t.rest("PATCH", `${sites}/${siteId}/share-links/${link.body.id}`, { token: admin, body: { active: false } });
    expect((await readPublished(path, { shareKey })).status).toBe(404);

    // The key only works while the site's visibility is share-link.
    await t.rest("PATCH", `${sites}/${siteId}/share-links/${link.body.id}`, { token: admin, body: { active: true } });
    await t.rest("PATCH", `${sites}/${siteId}`, { token: admin, body: { visibility: "visitor-auth" } });
    expect((await readPublished(path, { shareKey })).status).toBe(401);
  });

  it("opens visitor-auth sites to a JWT signed with the site's key", async () => {
    const { siteId, path } = await publishedSite("visitor-auth");
    const key = await visitorAuthKey(siteId);
    expect(key).toMatch(/^[0-9A-Za-z]{43}$/);

    expect((await readPublished(path)).status).toBe(401);
    const opened = await readPublished(path, { token: await visitorJwt(key, { plan: "pro" }) });
    expect(opened.status).toBe(200);
    expectMatchesSpec("getPublishedContentSite", 200, opened.body);

    expect((await readPublished(path, { token: await visitorJwt(key, {}, "2025-12-31T00:00:00Z") })).status).toBe(401);
    expect(
      (await readPublished(path, { token: await visitorJwt("another-sites-secret-value-0123456789") })).status,
    ).toBe(401);
    expect((await readPublished(path, { token: "not.a.jwt" })).status).toBe(401);
    // Unpublished: the JWT no longer opens it.
    await t.rest("POST", `${sites}/${siteId}/unpublish`, { token: admin });
    expect((await readPublished(path, { token: await visitorJwt(key) })).status).toBe(404);
  });

  it("shows the visitor-auth key to organization admins only", async () => {
    const { siteId } = await publishedSite("visitor-auth");
    const query = { organizationId: org.organizationId, siteId };
    await expect(t.graphql(org.members.create.token).request(visitorAuthKeyQuery, query)).rejects.toThrow(/admin/);
  });
});
