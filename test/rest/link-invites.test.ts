import { beforeAll, describe, expect, it } from "vitest";
import { type SeededOrganization, seedOrganization, seedUser, startTestApp, type TestApp } from "../helpers/app.ts";
import { expectMatchesSpec } from "../helpers/contract.ts";

let t: TestApp;
let org: SeededOrganization;
let base: string;

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "Invites Org");
  base = `/orgs/${org.organizationId}/link-invites`;
});

type InviteBody = { id: string; role: string | null; redundant: boolean };

describe("link invites", () => {
  it("are created, listed, changed and deleted by admins", async () => {
    const created = await t.rest<InviteBody>("POST", base, { token: org.members.admin.token, body: { role: "edit" } });
    expect(created.status).toBe(201);
    expectMatchesSpec("createOrganizationInvite", 201, created.body);
    expect(created.body).toMatchObject({ role: "edit", redundant: true });

    const list = await t.rest<{ items: InviteBody[] }>("GET", base, { token: org.members.admin.token });
    expectMatchesSpec("listOrganizationInviteLinks", 200, list.body);
    expect(list.body.items.map((invite) => invite.id)).toEqual([created.body.id]);

    const one = await t.rest("GET", `${base}/${created.body.id}`, { token: org.members.admin.token });
    expectMatchesSpec("getOrganizationInviteLink", 200, one.body);
    const updated = await t.rest<InviteBody>("PATCH", `${base}/${created.body.id}`, {
      token: org.members.admin.token,
      body: { role: null },
    });
    expectMatchesSpec("updateOrganizationInviteById", 200, updated.body);
    expect(updated.body.role).toBeNull();

    const removed = await t.rest("DELETE", `${base}/${created.body.id}`, { token: org.members.admin.token });
    expect(removed.status).toBe(204);
    expectMatchesSpec("deleteOrganizationInviteById", 204, removed.body);
    expect((await t.rest("DELETE", `${base}/${created.body.id}`, { token: org.members.admin.token })).status).toBe(204);
    expect((await t.rest("GET", `${base}/${created.body.id}`, { token: org.members.admin.token })).status).toBe(404);
  });

  it("are refused to non-admins and for bad roles", async () => {
    expect((await t.rest("POST", base, { token: org.members.create.token, body: { role: "read" } })).status).toBe(403);
    expect((await t.rest("GET", base, { token: org.members.read.token })).status).toBe(403);
    expect((await t.rest("POST", base, { token: org.members.admin.token, body: { role: "owner" } })).status).toBe(400);
    expect((await t.rest("POST", base, { token: org.members.admin.token, body: {} })).status).toBe(400);
  });

  it("let a new user join with the invite's role, and never lower an existing role", async () => {
    const invite = await t.rest<InviteBody>("POST", base, {
      token: org.members.admin.token,
      body: { role: "comment" },
    });
    const newcomer = await seedUser(t.db, "newcomer");
    const join = await t.rest("POST", `/orgs/${org.organizationId}/invites/${invite.body.id}`, {
      token: newcomer.token,
    });
    expect(join.status).toBe(200);
    expectMatchesSpec("joinOrganizationWithInvite", 200, join.body);
    const member = await t.db.prisma.member.findUniqueOrThrow({
      where: { organizationId_userId: { organizationId: org.organizationId, userId: newcomer.id } },
    });
    expect(member.role).toBe("comment");

    await t.rest("POST", `/orgs/${org.organizationId}/invites/${invite.body.id}`, { token: org.members.admin.token });
    const admin = await t.db.prisma.member.findUniqueOrThrow({
      where: { organizationId_userId: { organizationId: org.organizationId, userId: org.members.admin.id } },
    });
    expect(admin.role).toBe("admin");

    expect(
      (await t.rest("POST", `/orgs/${org.organizationId}/invites/inv_guessed`, { token: newcomer.token })).status,
    ).toBe(404);
    await t.rest("PATCH", `/orgs/${org.organizationId}`, {
      token: org.members.admin.token,
      body: { inviteLinks: false },
    });
    const late = await seedUser(t.db, "late");
    expect(
      (await t.rest("POST", `/orgs/${org.organizationId}/invites/${invite.body.id}`, { token: late.token })).status,
    ).toBe(403);
  });
});
