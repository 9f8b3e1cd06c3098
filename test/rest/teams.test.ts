import { beforeAll, describe, expect, it } from "vitest";
import { type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { expectMatchesSpec } from "../helpers/contract.ts";

let t: TestApp;
let org: SeededOrganization;
let other: SeededOrganization;
let base: string;

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "Teams Org");
  other = await seedOrganization(t.db, "Other Org");
  base = `/orgs/${org.organizationId}/teams`;
});

type TeamBody = { id: string; title: string; members: number; permissions: { admin: boolean; view: boolean } };

async function createTeam(title: string, members: string[] = []) {
  const response = await t.rest<TeamBody>("PUT", base, { token: org.members.admin.token, body: { title, members } });
  expect(response.status).toBe(201);
  return response.body;
}

describe("teams", () => {
  it("creates, reads, renames and deletes a team", async () => {
    const created = await t.rest<TeamBody>("PUT", base, {
      token: org.members.admin.token,
      body: { title: "Writers", members: [org.members.edit.id, org.members.read.email] },
    });
    expect(created.status).toBe(201);
    expectMatchesSpec("createOrganizationTeam", 201, created.body);
    expect(created.body).toMatchObject({ title: "Writers", members: 2, permissions: { admin: true, view: true } });

    const read = await t.rest<TeamBody>("GET", `${base}/${created.body.id}`, { token: org.members.read.token });
    expect(read.status).toBe(200);
    expectMatchesSpec("getTeamInOrganizationById", 200, read.body);
    expect(read.body.permissions).toEqual({ admin: false, view: true });

    const renamed = await t.rest<TeamBody>("PATCH", `${base}/${created.body.id}`, {
      token: org.members.admin.token,
      body: { title: "Authors" },
    });
    expect(renamed.status).toBe(200);
    expectMatchesSpec("updateTeamInOrganizationById", 200, renamed.body);
    expect(renamed.body.title).toBe("Authors");

    const removed = await t.rest("DELETE", `${base}/${created.body.id}`, { token: org.members.admin.token });
    expect(removed.status).toBe(204);
    expectMatchesSpec("removeTeamFromOrganizationById", 204, removed.body);
    expect((await t.rest("DELETE", `${base}/${created.body.id}`, { token: org.members.admin.token })).status).toBe(204);
    expect((await t.rest("GET", `${base}/${created.body.id}`, { token: org.members.admin.token })).status).toBe(404);
    expect(await t.db.prisma.teamMember.count({ where: { teamId: created.body.id } })).toBe(0);
  });

  it("refuses bad input, outsiders and non-admins", async () => {
    for (const body of [
      {},
      { title: "" },
      { title: "x".repeat(65) },
      { title: "Ok", members: [other.members.read.id] },
    ]) {
      const response = await t.rest("PUT", base, { token: org.members.admin.token, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
    expect((await t.rest("PUT", base, { token: org.members.create.token, body: { title: "Mine" } })).status).toBe(403);
    expect((await t.rest("GET", base, { token: other.members.admin.token })).status).toBe(404);
    const team = await createTeam("Secret");
    expect(
      (await t.rest("GET", `/orgs/${other.organizationId}/teams/${team.id}`, { token: other.members.admin.token }))
        .status,
    ).toBe(404);
  });

  it("lists teams with title and owner filters", async () => {
    const alpha = await createTeam("Alpha Squad");
    await createTeam("Beta Squad");
    await t.rest("PUT", `${base}/${alpha.id}/members/${org.members.edit.id}`, {
      token: org.members.admin.token,
      body: { role: "owner" },
    });
    const byTitle = await t.rest<{ items: TeamBody[] }>("GET", base, {
      token: org.members.read.token,
      query: { title: "alpha" },
    });
    expect(byTitle.status).toBe(200);
    expectMatchesSpec("listTeamsInOrganizationById", 200, byTitle.body);
    expect(byTitle.body.items.map((team) => team.id)).toEqual([alpha.id]);
    const owned = await t.rest<{ items: TeamBody[] }>("GET", base, {
      token: org.members.read.token,
      query: { owner: org.members.edit.id },
    });
    expect(owned.body.items.map((team) => team.id)).toEqual([alpha.id]);
    const asAdmin = await t.rest<{ items: TeamBody[]; count: number }>("GET", base, {
      token: org.members.read.token,
      query: { owner: org.members.admin.id },
    });
    expect(asAdmin.body.count).toBeGreaterThanOrEqual(2);
  });
});

describe("team members", () => {
  it("adds, re-roles and removes members in bulk and one by one", async () => {
    const team = await createTeam("Reviewers");
    const path = `${base}/${team.id}/members`;
    const bulk = await t.rest("PUT", path, {
      token: org.members.admin.token,
      body: {
        add: [org.members.review.id, org.members.comment.email, org.members.read.id],
        remove: [org.members.read.id],
        memberships: { [org.members.review.id]: { role: "owner" } },
      },
    });
    expect(bulk.status).toBe(204);
    expectMatchesSpec("updateMembersInOrganizationTeam", 204, bulk.body);

    const list = await t.rest<{ items: { organization: { id: string }; team: { role: string } }[]; count: number }>(
      "GET",
      path,
      {
        token: org.members.read.token,
      },
    );
    expect(list.status).toBe(200);
    expectMatchesSpec("listTeamMembersInOrganizationById", 200, list.body);
    expect(Object.fromEntries(list.body.items.map((item) => [item.organization.id, item.team.role]))).toEqual({
      [org.members.review.id]: "owner",
      [org.members.comment.id]: "member",
    });

    // A team owner manages the team without being an organization admin.
    const added = await t.rest("PUT", `${path}/${org.members.edit.id}`, { token: org.members.review.token, body: {} });
    expect(added.status).toBe(204);
    expectMatchesSpec("addMemberToOrganizationTeamById", 204, added.body);
    expect((await t.rest("PUT", `${path}/${org.members.read.id}`, { token: org.members.comment.token })).status).toBe(
      403,
    );
    expect((await t.rest("PUT", `${path}/${other.members.read.id}`, { token: org.members.admin.token })).status).toBe(
      400,
    );

    const removed = await t.rest("DELETE", `${path}/${org.members.edit.id}`, { token: org.members.review.token });
    expect(removed.status).toBe(204);
    expectMatchesSpec("deleteMemberFromOrganizationTeamById", 204, removed.body);
    expect((await t.rest("DELETE", `${path}/${org.members.edit.id}`, { token: org.members.admin.token })).status).toBe(
      204,
    );

    const teams = await t.rest<{ items: { team: { id: string }; member: { role: string } }[] }>(
      "GET",
      `/orgs/${org.organizationId}/members/${org.members.review.id}/teams`,
      { token: org.members.read.token },
    );
    expect(teams.status).toBe(200);
    expectMatchesSpec("listTeamsForOrganizationMember", 200, teams.body);
    expect(teams.body.items).toEqual([
      expect.objectContaining({ team: expect.objectContaining({ id: team.id }), member: { role: "owner" } }),
    ]);

    const member = await t.rest<{ teams: number }>(
      "GET",
      `/orgs/${org.organizationId}/members/${org.members.review.id}`,
      {
        token: org.members.read.token,
      },
    );
    expect(member.body.teams).toBe(1);
  });

  it("rejects unknown users and bad roles in bulk updates without partial writes", async () => {
    const team = await createTeam("Atomic");
    const path = `${base}/${team.id}/members`;
    const response = await t.rest("PUT", path, {
      token: org.members.admin.token,
      body: { add: [org.members.edit.id, "nobody@nowhere.test"] },
    });
    expect(response.status).toBe(400);
    expect(await t.db.prisma.teamMember.count({ where: { teamId: team.id } })).toBe(0);
    const badRole = await t.rest("PUT", path, {
      token: org.members.admin.token,
      body: { memberships: { [org.members.edit.id]: { role: "captain" } } },
    });
    expect(badRole.status).toBe(400);
  });
});
