import { beforeAll, describe, expect, it } from "vitest";
import {
  type SeededOrganization,
  type SeededUser,
  seedOrganization,
  seedUser,
  startTestApp,
  type TestApp,
} from "../helpers/app.ts";
import { expectMatchesSpec } from "../helpers/contract.ts";

let t: TestApp;
let org: SeededOrganization;
let other: SeededOrganization;
let admin: SeededUser;

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "Acme Docs");
  other = await seedOrganization(t.db, "Other Tenant");
  admin = org.members.admin;
});

describe("GET /orgs", () => {
  it("lists the caller's organizations with the page-token envelope", async () => {
    const response = await t.rest<{ items: { id: string }[]; count: number }>("GET", "/orgs", { token: admin.token });
    expect(response.status).toBe(200);
    expectMatchesSpec("listOrganizationsForAuthenticatedUser", 200, response.body);
    expect(response.body.items.map((item) => item.id)).toEqual([org.organizationId]);
    expect(response.body.count).toBe(1);
  });

  it("pages with limit and the next page token", async () => {
    const user = await seedUser(t.db, "multi");
    for (let i = 0; i < 3; i++) {
      const created = await t.rest<{ id: string }>("POST", "/orgs", { token: user.token, body: { title: `Org ${i}` } });
      expect(created.status).toBe(201);
    }
    const first = await t.rest<{ items: { id: string }[]; next?: { page: string }; count: number }>("GET", "/orgs", {
      token: user.token,
      query: { limit: 2 },
    });
    expect(first.body.items).toHaveLength(2);
    expect(first.body.count).toBe(3);
    expect(first.body.next?.page).toBeTruthy();
    const second = await t.rest<{ items: { id: string }[]; next?: unknown }>("GET", "/orgs", {
      token: user.token,
      query: { limit: 2, page: first.body.next?.page as string },
    });
    expect(second.body.items).toHaveLength(1);
    expect(second.body.next).toBeUndefined();
    const ids = [...first.body.items, ...second.body.items].map((item) => item.id);
    expect(new Set(ids).size).toBe(3);
  });

  it("answers 401 without a token and with an unknown token", async () => {
    for (const token of [undefined, "dmt_AAAAAAAAAAAAAAAA_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB"]) {
      const response = await t.rest("GET", "/orgs", { token });
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ error: { code: 401, message: expect.any(String) } });
    }
  });

  it("rejects limit over 1000, a non-numeric limit and a bad page token with 400", async () => {
    for (const query of [{ limit: 1001 }, { limit: "ten" }, { page: "not-a-cursor" }]) {
      const response = await t.rest("GET", "/orgs", { token: admin.token, query });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ error: { code: 400 } });
    }
  });
});

describe("POST /orgs", () => {
  it("creates an organization whose creator is its admin", async () => {
    const user = await seedUser(t.db, "founder");
    const response = await t.rest<{ id: string; title: string; permissions: { admin: boolean } }>("POST", "/orgs", {
      token: user.token,
      body: { title: "New Org", emailDomains: ["Founder.example"], type: "community", useCase: "docsSite" },
    });
    expect(response.status).toBe(201);
    expectMatchesSpec("getOrganizationById", 200, response.body);
    expect(response.body).toMatchObject({ title: "New Org", type: "community", useCase: "docsSite" });
    expect(response.body.permissions.admin).toBe(true);
    const member = await t.db.prisma.member.findUniqueOrThrow({
      where: { organizationId_userId: { organizationId: response.body.id, userId: user.id } },
    });
    expect(member.role).toBe("admin");
  });

  it("refuses bad input with 400 and writes nothing", async () => {
    const before = await t.db.prisma.organization.count();
    for (const body of [
      {},
      { title: "x" },
      { title: 42 },
      { title: "Fine", type: "galaxy" },
      { title: "Fine", unknown: 1 },
    ]) {
      const response = await t.rest("POST", "/orgs", { token: admin.token, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body).toMatchObject({ error: { code: 400, message: expect.any(String) } });
    }
    expect(await t.db.prisma.organization.count()).toBe(before);
  });

  it("answers malformed JSON and a non-object body with 400", async () => {
    expect((await t.rest("POST", "/orgs", { token: admin.token, rawBody: "{nope" })).status).toBe(400);
    expect((await t.rest("POST", "/orgs", { token: admin.token, rawBody: "[1]" })).status).toBe(400);
  });
});

describe("GET/PATCH /orgs/{id}", () => {
  it("returns the organization with the caller's permissions", async () => {
    const response = await t.rest<{ permissions: Record<string, boolean> }>("GET", `/orgs/${org.organizationId}`, {
      token: org.members.read.token,
    });
    expect(response.status).toBe(200);
    expectMatchesSpec("getOrganizationById", 200, response.body);
    expect(response.body.permissions).toMatchObject({
      view: true,
      listMembers: true,
      admin: false,
      createContent: false,
    });
    const asCreator = await t.rest<{ permissions: Record<string, boolean> }>("GET", `/orgs/${org.organizationId}`, {
      token: org.members.create.token,
    });
    expect(asCreator.body.permissions).toMatchObject({ createContent: true, createOpenAPISpec: true, admin: false });
  });

  it("hides other tenants' organizations with 404", async () => {
    const response = await t.rest("GET", `/orgs/${other.organizationId}`, { token: admin.token });
    expect(response.status).toBe(404);
    expectMatchesSpec("getOrganizationById", 404, response.body);
    expect((await t.rest("GET", "/orgs/org_doesnotexist", { token: admin.token })).status).toBe(404);
  });

  it("lets admins update settings and keeps null defaultRole in the body", async () => {
    const response = await t.rest<Record<string, unknown>>("PATCH", `/orgs/${org.organizationId}`, {
      token: admin.token,
      body: {
        title: "Acme Documentation",
        emailDomains: ["acme.test"],
        hostname: "acme-docs",
        defaultRole: null,
        sso: true,
        mergeRules: { type: "rules", rules: [{ rule: "require_specific_reviewers", users: [admin.id] }] },
      },
    });
    expect(response.status).toBe(200);
    expectMatchesSpec("updateOrganizationById", 200, response.body);
    expect(response.body).toMatchObject({
      title: "Acme Documentation",
      hostname: "acme-docs",
      defaultRole: null,
      sso: true,
    });
    const stored = await t.db.prisma.organization.findUniqueOrThrow({ where: { id: org.organizationId } });
    expect(stored.emailDomains).toEqual(["acme.test"]);
    // Enforced SSO refuses the other (non-SSO) members, which later tests use: see saml-sso.test.ts.
    const ssoOff = await t.rest("PATCH", `/orgs/${org.organizationId}`, { token: admin.token, body: { sso: false } });
    expect(ssoOff.status).toBe(200);
  });

  it("refuses non-admins with 403 and invalid settings with 400", async () => {
    const forbidden = await t.rest("PATCH", `/orgs/${org.organizationId}`, {
      token: org.members.create.token,
      body: { title: "Nope" },
    });
    expect(forbidden.status).toBe(403);
    for (const body of [
      { defaultContent: { type: "site", site: "site_missing" } },
      { hostname: "UPPER" },
      { mergeRules: { type: "inherit" } },
      { defaultRole: "owner" },
      { id: "org_other" },
    ]) {
      const response = await t.rest("PATCH", `/orgs/${org.organizationId}`, { token: admin.token, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
  });
});

describe("agent instructions", () => {
  const document = { object: "document", data: {}, nodes: [{ object: "block", type: "paragraph", nodes: [] }] };

  it("are set by admins and read by members", async () => {
    expect((await t.rest("GET", `/orgs/${org.organizationId}/agent-instructions`, { token: admin.token })).status).toBe(
      404,
    );
    const put = await t.rest("PUT", `/orgs/${org.organizationId}/agent-instructions`, {
      token: admin.token,
      body: { instructions: document },
    });
    expect(put.status).toBe(200);
    expectMatchesSpec("updateOrganizationAgentInstructions", 200, put.body);
    const get = await t.rest<{ instructions: unknown; updatedBy: string }>(
      "GET",
      `/orgs/${org.organizationId}/agent-instructions`,
      {
        token: org.members.read.token,
      },
    );
    expect(get.status).toBe(200);
    expectMatchesSpec("getOrganizationAgentInstructions", 200, get.body);
    expect(get.body).toMatchObject({ instructions: document, updatedBy: admin.id });
  });

  it("refuse non-admins and non-documents", async () => {
    const path = `/orgs/${org.organizationId}/agent-instructions`;
    expect(
      (await t.rest("PUT", path, { token: org.members.edit.token, body: { instructions: document } })).status,
    ).toBe(403);
    expect((await t.rest("PUT", path, { token: admin.token, body: { instructions: { nodes: "x" } } })).status).toBe(
      400,
    );
    expect((await t.rest("PUT", path, { token: admin.token, body: {} })).status).toBe(400);
  });
});

describe("joining", () => {
  it("joins by verified email domain, and refuses other domains with 400", async () => {
    const joiner = await seedUser(t.db, "joiner");
    const target = await t.rest<{ id: string }>("POST", "/orgs", {
      token: admin.token,
      body: { title: "Open Org", emailDomains: ["seed.test"] },
    });
    const join = await t.rest("POST", `/orgs/${target.body.id}/join`, { token: joiner.token });
    expect(join.status).toBe(204);
    expect(join.body).toBeUndefined();
    expectMatchesSpec("joinOrganization", 204, join.body);
    const closed = await t.rest<{ id: string }>("POST", "/orgs", { token: admin.token, body: { title: "Closed Org" } });
    const refused = await t.rest("POST", `/orgs/${closed.body.id}/join`, { token: joiner.token });
    expect(refused.status).toBe(400);
    expect((await t.rest("POST", "/orgs/org_unknown/join", { token: joiner.token })).status).toBe(404);
  });

  it("lists organizations for the caller's own email domain only", async () => {
    const own = await t.rest<{ organizations: { id: string }[] }>("GET", "/email-domains/seed.test/orgs", {
      token: admin.token,
    });
    expect(own.status).toBe(200);
    expectMatchesSpec("getOrganizationsForEmailDomain", 200, own.body);
    expect(own.body.organizations.map((o) => o.id)).toContain(other.organizationId);
    expect((await t.rest("GET", "/email-domains/other.test/orgs", { token: admin.token })).status).toBe(403);
  });
});

describe("routing", () => {
  it("answers unknown paths with 404 and wrong methods with 405, both with the error body", async () => {
    const missing = await t.rest("GET", "/nowhere", { token: admin.token });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: { code: 404 } });
    const wrongMethod = await t.rest("DELETE", "/orgs", { token: admin.token });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")).toBe("GET, POST");
    expect(wrongMethod.body).toMatchObject({ error: { code: 405 } });
  });
});
