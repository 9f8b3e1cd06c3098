import { GitBookAPI, MemberRole, TeamMemberRole } from "@gitbook/api";
import { beforeAll, describe, expect, it } from "vitest";
import { type SeededOrganization, seedUser, type TestApp } from "../helpers/app.ts";
import { expectMatchesSpec } from "../helpers/contract.ts";
import { type OfficialClientSetup, startOfficialClient } from "../helpers/official-client.ts";

// The public API's official client, unchanged, pointed at our server.
let t: TestApp;
let server: OfficialClientSetup["server"];
let org: SeededOrganization;
let api: GitBookAPI;

beforeAll(async () => {
  ({ t, server, org, api } = await startOfficialClient("Client Org"));
});

describe("@gitbook/api GitBookAPI against /v1", () => {
  it("reads and updates organizations", async () => {
    const list = await api.orgs.listOrganizationsForAuthenticatedUser({ limit: 10 });
    expectMatchesSpec("listOrganizationsForAuthenticatedUser", list.status, list.data);
    expect(list.data.items.map((item) => item.id)).toEqual([org.organizationId]);

    const one = await api.orgs.getOrganizationById(org.organizationId);
    expectMatchesSpec("getOrganizationById", one.status, one.data);
    const updated = await api.orgs.updateOrganizationById(org.organizationId, {
      title: "Client Org Renamed",
      ai: true,
    });
    expectMatchesSpec("updateOrganizationById", updated.status, updated.data);
    expect(updated.data).toMatchObject({ title: "Client Org Renamed", ai: true });

    const domains = await api.emailDomains.getOrganizationsForEmailDomain("seed.test");
    expectMatchesSpec("getOrganizationsForEmailDomain", domains.status, domains.data);

    const instructions = { object: "document" as const, data: {}, nodes: [] };
    const put = await api.orgs.updateOrganizationAgentInstructions(org.organizationId, { instructions });
    expectMatchesSpec("updateOrganizationAgentInstructions", put.status, put.data);
    const get = await api.orgs.getOrganizationAgentInstructions(org.organizationId);
    expectMatchesSpec("getOrganizationAgentInstructions", get.status, get.data);

    const joiner = await seedUser(t.db, "client-joiner");
    const join = await new GitBookAPI({ endpoint: server.url, authToken: joiner.token }).orgs.joinOrganization(
      org.organizationId,
    );
    expect(join.status).toBe(204);
  });

  it("manages members", async () => {
    const members = await api.orgs.listMembersInOrganizationById(org.organizationId, { limit: 3, order: "asc" });
    expectMatchesSpec("listMembersInOrganizationById", members.status, members.data);
    expect(members.data.items).toHaveLength(3);
    expect(members.data.next?.page).toBeTruthy();

    const member = await api.orgs.getMemberInOrganizationById(org.organizationId, org.members.edit.id);
    expectMatchesSpec("getMemberInOrganizationById", member.status, member.data);
    const updated = await api.orgs.updateMemberInOrganizationById(org.organizationId, org.members.edit.id, {
      role: MemberRole.Review,
    });
    expectMatchesSpec("updateMemberInOrganizationById", updated.status, updated.data);
    expect(updated.data.role).toBe("review");
    // The client has no method for POST ORG/members/{userId}/sso; test/rest/members.test.ts covers it.
    const ping = await api.orgs.updateOrganizationMemberLastSeenAt(org.organizationId);
    expectMatchesSpec("updateOrganizationMemberLastSeenAt", ping.status, ping.data);
    const removed = await api.orgs.removeMemberFromOrganizationById(org.organizationId, org.members.guest.id);
    expectMatchesSpec("removeMemberFromOrganizationById", removed.status, undefined);
  });

  it("manages teams and team members", async () => {
    const created = await api.orgs.createOrganizationTeam(org.organizationId, {
      title: "Client Team",
      members: [org.members.read.id],
    });
    expectMatchesSpec("createOrganizationTeam", created.status, created.data);
    const teamId = created.data.id;
    const list = await api.orgs.listTeamsInOrganizationById(org.organizationId, { title: "client" });
    expectMatchesSpec("listTeamsInOrganizationById", list.status, list.data);
    const one = await api.orgs.getTeamInOrganizationById(org.organizationId, teamId);
    expectMatchesSpec("getTeamInOrganizationById", one.status, one.data);
    const renamed = await api.orgs.updateTeamInOrganizationById(org.organizationId, teamId, { title: "Client Team 2" });
    expectMatchesSpec("updateTeamInOrganizationById", renamed.status, renamed.data);

    const bulk = await api.orgs.updateMembersInOrganizationTeam(org.organizationId, teamId, {
      add: [org.members.comment.email],
    });
    expect(bulk.status).toBe(204);
    const put = await api.orgs.addMemberToOrganizationTeamById(org.organizationId, teamId, org.members.create.id, {
      role: TeamMemberRole.Owner,
    });
    expect(put.status).toBe(204);
    const members = await api.orgs.listTeamMembersInOrganizationById(org.organizationId, teamId);
    expectMatchesSpec("listTeamMembersInOrganizationById", members.status, members.data);
    expect(members.data.items).toHaveLength(3);
    const memberTeams = await api.orgs.listTeamsForOrganizationMember(org.organizationId, org.members.create.id);
    expectMatchesSpec("listTeamsForOrganizationMember", memberTeams.status, memberTeams.data);
    expect(memberTeams.data.items[0]?.member.role).toBe("owner");
    const removedMember = await api.orgs.deleteMemberFromOrganizationTeamById(
      org.organizationId,
      teamId,
      org.members.create.id,
    );
    expect(removedMember.status).toBe(204);
    const removed = await api.orgs.removeTeamFromOrganizationById(org.organizationId, teamId);
    expect(removed.status).toBe(204);
  });

  it("surfaces errors as the public error body", async () => {
    const outsider = new GitBookAPI({
      endpoint: server.url,
      authToken: "dmt_AAAAAAAAAAAAAAAA_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB",
    });
    await expect(outsider.orgs.listOrganizationsForAuthenticatedUser()).rejects.toMatchObject({ code: 401 });
    await expect(api.orgs.getOrganizationById("org_missing")).rejects.toMatchObject({ code: 404 });
  });
});
