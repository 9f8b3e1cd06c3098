import { beforeAll, describe, expect, it } from "vitest";
import { type SeededOrganization, seedOrganization, seedUser, startTestApp, type TestApp } from "../helpers/app.ts";
import { expectMatchesSpec } from "../helpers/contract.ts";

let t: TestApp;
let org: SeededOrganization;
let other: SeededOrganization;
let base: string;

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "Members Org");
  other = await seedOrganization(t.db, "Other Org");
  base = `/orgs/${org.organizationId}/members`;
});

type MemberBody = { id: string; role: string | null; user: { email: string }; lastSeenAt?: string; sso: boolean };

describe("listing members", () => {
  it("lists every member with filters, sorting and pages", async () => {
    const all = await t.rest<{ items: MemberBody[]; count: number }>("GET", base, { token: org.members.read.token });
    expect(all.status).toBe(200);
    expectMatchesSpec("listMembersInOrganizationById", 200, all.body);
    expect(all.body.count).toBe(7);
    expect(all.body.items.find((m) => m.id === org.members.guest.id)?.role).toBeNull();

    const editors = await t.rest<{ items: MemberBody[] }>("GET", base, {
      token: org.members.read.token,
      query: { role: "edit" },
    });
    expect(editors.body.items.map((m) => m.id)).toEqual([org.members.edit.id]);
    const guests = await t.rest<{ items: MemberBody[] }>("GET", base, {
      token: org.members.read.token,
      query: { role: "guest" },
    });
    expect(guests.body.items.map((m) => m.id)).toEqual([org.members.guest.id]);

    const search = await t.rest<{ items: MemberBody[] }>("GET", base, {
      token: org.members.read.token,
      query: { search: org.members.review.email.slice(0, 12).toUpperCase() },
    });
    expect(search.body.items.map((m) => m.id)).toEqual([org.members.review.id]);

    const pages: string[] = [];
    let page: string | undefined;
    do {
      const response = await t.rest<{ items: MemberBody[]; next?: { page: string } }>("GET", base, {
        token: org.members.read.token,
        query: { limit: 3, order: "asc", ...(page ? { page } : {}) },
      });
      pages.push(...response.body.items.map((m) => m.id));
      page = response.body.next?.page;
    } while (page);
    expect(pages).toHaveLength(7);
    expect(new Set(pages).size).toBe(7);
  });

  it("sorts by last activity, listing only active members", async () => {
    const ping = await t.rest("POST", `/orgs/${org.organizationId}/ping`, { token: org.members.comment.token });
    expect(ping.status).toBe(200);
    expectMatchesSpec("updateOrganizationMemberLastSeenAt", 200, ping.body);
    const active = await t.rest<{ items: MemberBody[] }>("GET", base, {
      token: org.members.read.token,
      query: { sort: "lastSeenAt" },
    });
    expect(active.body.items.map((m) => m.id)).toEqual([org.members.comment.id]);
    expect(active.body.items[0]?.lastSeenAt).toBe(t.clock.now().toISOString());
  });

  it("hides the list from guests (403) and other tenants (404)", async () => {
    expect((await t.rest("GET", base, { token: org.members.guest.token })).status).toBe(403);
    expect((await t.rest("GET", base, { token: other.members.admin.token })).status).toBe(404);
    expect((await t.rest("GET", base, { token: org.members.read.token, query: { role: "owner" } })).status).toBe(400);
  });
});

describe("one member", () => {
  it("gets a member and 404s for non-members", async () => {
    const response = await t.rest("GET", `${base}/${org.members.edit.id}`, { token: org.members.read.token });
    expect(response.status).toBe(200);
    expectMatchesSpec("getMemberInOrganizationById", 200, response.body);
    expect((await t.rest("GET", `${base}/${other.members.edit.id}`, { token: org.members.read.token })).status).toBe(
      404,
    );
  });

  it("changes roles as admin only and keeps the last admin", async () => {
    const path = `${base}/${org.members.comment.id}`;
    expect((await t.rest("PATCH", path, { token: org.members.create.token, body: { role: "edit" } })).status).toBe(403);
    const updated = await t.rest<MemberBody>("PATCH", path, { token: org.members.admin.token, body: { role: "edit" } });
    expect(updated.status).toBe(200);
    expectMatchesSpec("updateMemberInOrganizationById", 200, updated.body);
    expect(updated.body.role).toBe("edit");
    const guest = await t.rest<MemberBody>("PATCH", path, { token: org.members.admin.token, body: { role: null } });
    expect(guest.body.role).toBeNull();
    expect((await t.rest("PATCH", path, { token: org.members.admin.token, body: { role: "boss" } })).status).toBe(400);
    const lastAdmin = await t.rest("PATCH", `${base}/${org.members.admin.id}`, {
      token: org.members.admin.token,
      body: { role: "read" },
    });
    expect(lastAdmin.status).toBe(409);
    expect(lastAdmin.body).toMatchObject({ error: { code: 409 } });
  });

  it("marks a member as SSO member", async () => {
    const response = await t.rest<MemberBody>("POST", `${base}/${org.members.read.id}/sso`, {
      token: org.members.admin.token,
    });
    expect(response.status).toBe(200);
    expectMatchesSpec("setUserAsSSOMemberForOrganization", 200, response.body);
    expect(response.body.sso).toBe(true);
  });

  it("removes members (204 also when absent) and lets members leave", async () => {
    const leaver = await seedUser(t.db, "leaver");
    await t.db.prisma.member.create({ data: { organizationId: org.organizationId, userId: leaver.id, role: "read" } });
    const forbidden = await t.rest("DELETE", `${base}/${org.members.edit.id}`, { token: leaver.token });
    expect(forbidden.status).toBe(403);
    const leave = await t.rest("DELETE", `${base}/${leaver.id}`, { token: leaver.token });
    expect(leave.status).toBe(204);
    expectMatchesSpec("removeMemberFromOrganizationById", 204, leave.body);
    const again = await t.rest("DELETE", `${base}/${leaver.id}`, { token: org.members.admin.token });
    expect(again.status).toBe(204);
    expect(await t.db.prisma.member.count({ where: { userId: leaver.id } })).toBe(0);
    // The removed member no longer sees the organization.
    expect((await t.rest("GET", `/orgs/${org.organizationId}`, { token: leaver.token })).status).toBe(404);
  });
});
