import { beforeAll, describe, expect, it } from "vitest";
import { createSite, createSpace, sitePath } from "../factories.ts";
import { graphql } from "../generated/gql.ts";
import { type SeededOrganization, seedOrganization, seedUser, startTestApp, type TestApp } from "../helpers/app.ts";
import { refusalOf } from "../helpers/graphql-answer.ts";

/*
 * Issue 37 item 2: a front end holding an object from `node(id:)` calls its mutations with that id alone. Each
 * family: the mutation by the object's id changes the row (read back over REST), and a parent id that is not the
 * object's answers NOT_FOUND, as it always did. Outsiders learn nothing from an id: the object's own not-found.
 */

const UpdateSite = graphql(`
  mutation ByIdUpdateSite($organizationId: ID, $siteId: ID!, $title: String!) {
    updateSite(input: { organizationId: $organizationId, siteId: $siteId, title: $title }) { site { id title } }
  }
`);
const PublishSite = graphql(`
  mutation ByIdPublishSite($siteId: ID!) { publishSite(input: { siteId: $siteId }) { site { id published } } }
`);
const CreateShareLink = graphql(`
  mutation ByIdCreateShareLink($siteId: ID!) {
    createSiteShareLink(input: { siteId: $siteId, name: "For reviewers" }) { shareLink { id name } }
  }
`);
const DeleteSite = graphql(`
  mutation ByIdDeleteSite($siteId: ID!) { deleteSite(input: { siteId: $siteId }) { deletedId } }
`);
const UpdateTeam = graphql(`
  mutation ByIdUpdateTeam($organizationId: ID, $teamId: ID!, $title: String!) {
    updateTeam(input: { organizationId: $organizationId, teamId: $teamId, title: $title }) { team { id title } }
  }
`);
const UpdateTeamMembers = graphql(`
  mutation ByIdUpdateTeamMembers($teamId: ID!, $add: [String!]) {
    updateTeamMembers(input: { teamId: $teamId, add: $add }) { team { id } }
  }
`);
const DeleteTeam = graphql(`
  mutation ByIdDeleteTeam($teamId: ID!) { deleteTeam(input: { teamId: $teamId }) { deletedId } }
`);
const UpdateTranslation = graphql(`
  mutation ByIdUpdateTranslation($organizationId: ID, $translationId: ID!, $instructions: JSON!) {
    updateTranslation(input: { organizationId: $organizationId, translationId: $translationId, instructions: $instructions }) { translation { id } }
  }
`);
const RunTranslation = graphql(`
  mutation ByIdRunTranslation($translationId: ID!) {
    runTranslation(input: { translationId: $translationId }) { translation { id status } }
  }
`);
const UpdateSamlProvider = graphql(`
  mutation ByIdUpdateSamlProvider($organizationId: ID, $samlProviderId: ID!, $label: String!) {
    updateOrganizationSAMLProvider(input: { organizationId: $organizationId, samlProviderId: $samlProviderId, label: $label }) { samlProvider { id label } }
  }
`);
const DeleteSamlProvider = graphql(`
  mutation ByIdDeleteSamlProvider($samlProviderId: ID!) {
    deleteOrganizationSAMLProvider(input: { samlProviderId: $samlProviderId }) { deletedId }
  }
`);
const UpdateInvite = graphql(`
  mutation ByIdUpdateInvite($organizationId: ID, $inviteId: ID!) {
    updateOrganizationInvite(input: { organizationId: $organizationId, inviteId: $inviteId, role: COMMENT }) {
      linkInvite { id role }
    }
  }
`);
const JoinWithInvite = graphql(`
  mutation ByIdJoinWithInvite($organizationId: ID, $inviteId: ID!) {
    joinOrganizationWithInvite(input: { organizationId: $organizationId, inviteId: $inviteId }) { joined organization { id } }
  }
`);
const DeleteInvite = graphql(`
  mutation ByIdDeleteInvite($inviteId: ID!) { deleteOrganizationInvite(input: { inviteId: $inviteId }) { deletedId } }
`);

let t: TestApp;
let org: SeededOrganization;
let outsider: SeededOrganization;

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "By id");
  outsider = await seedOrganization(t.db, "By id outsider");
});

describe("site mutations by the site's id", () => {
  it("update, publish, add to and delete the site; a wrong organization or an outsider gets NOT_FOUND", async () => {
    const admin = t.graphql(org.members.admin.token);
    const site = await createSite(t, org, { title: "By id" });
    const updated = await admin.request(UpdateSite, { siteId: site.id, title: "Renamed by id" });
    expect(updated.updateSite?.site).toEqual({ id: site.id, title: "Renamed by id" });
    const read = await t.rest<{ title: string }>("GET", sitePath(org, site.id), { token: org.members.admin.token });
    expect(read.body.title).toBe("Renamed by id");

    expect((await admin.request(PublishSite, { siteId: site.id })).publishSite?.site).toEqual({
      id: site.id,
      published: true,
    });
    const link = await admin.request(CreateShareLink, { siteId: site.id });
    const links = await t.rest<{ items: { id: string }[] }>("GET", `${sitePath(org, site.id)}/share-links`, {
      token: org.members.admin.token,
    });
    expect(links.body.items.map((item) => item.id)).toEqual([link.createSiteShareLink?.shareLink?.id]);

    const wrongOrganization = { organizationId: outsider.organizationId, siteId: site.id, title: "Elsewhere" };
    expect((await refusalOf(admin.request(UpdateSite, wrongOrganization)))?.code).toBe("NOT_FOUND");
    const foreign = t.graphql(outsider.members.admin.token).request(UpdateSite, { siteId: site.id, title: "Taken" });
    expect((await refusalOf(foreign))?.message).toBe(`Site ${site.id} not found`);
    expect((await refusalOf(t.graphql(org.members.read.token).request(PublishSite, { siteId: site.id })))?.code).toBe(
      "FORBIDDEN",
    );

    expect((await admin.request(DeleteSite, { siteId: site.id })).deleteSite?.deletedId).toBe(site.id);
    expect((await t.rest("GET", sitePath(org, site.id), { token: org.members.admin.token })).status).toBe(404);
    expect((await refusalOf(admin.request(DeleteSite, { siteId: site.id })))?.code).toBe("NOT_FOUND");
  });
});

describe("team mutations by the team's id", () => {
  it("rename, staff and delete the team; a wrong organization or an outsider gets NOT_FOUND", async () => {
    const admin = t.graphql(org.members.admin.token);
    const team = await t.rest<{ id: string }>("PUT", `/orgs/${org.organizationId}/teams`, {
      token: org.members.admin.token,
      body: { title: "Writers" },
    });
    const teamPath = `/orgs/${org.organizationId}/teams/${team.body.id}`;
    const renamed = await admin.request(UpdateTeam, { teamId: team.body.id, title: "Editors" });
    expect(renamed.updateTeam?.team).toEqual({ id: team.body.id, title: "Editors" });
    const read = await t.rest<{ title: string }>("GET", teamPath, { token: org.members.admin.token });
    expect(read.body.title).toBe("Editors");

    await admin.request(UpdateTeamMembers, { teamId: team.body.id, add: [org.members.edit.id] });
    const members = await t.rest<{ items: unknown[] }>("GET", `${teamPath}/members`, {
      token: org.members.admin.token,
    });
    expect(members.body.items).toHaveLength(1);
    expect(JSON.stringify(members.body.items)).toContain(org.members.edit.id);

    const wrong = { organizationId: outsider.organizationId, teamId: team.body.id, title: "Elsewhere" };
    expect((await refusalOf(admin.request(UpdateTeam, wrong)))?.code).toBe("NOT_FOUND");
    const foreign = t.graphql(outsider.members.admin.token).request(DeleteTeam, { teamId: team.body.id });
    expect((await refusalOf(foreign))?.message).toBe(`Team ${team.body.id} not found`);

    expect((await admin.request(DeleteTeam, { teamId: team.body.id })).deleteTeam?.deletedId).toBe(team.body.id);
    expect((await t.rest("GET", teamPath, { token: org.members.admin.token })).status).toBe(404);
  });
});

describe("translation, SAML provider and invite mutations by their own ids", () => {
  it("change the object and refuse another organization's id", async () => {
    const admin = t.graphql(org.members.admin.token);
    const space = await createSpace(t, org, { title: "To translate" });
    const translation = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/translations`, {
      token: org.members.admin.token,
      body: { source: { space: space.id, language: "en" }, language: "de" },
    });
    const instructions = { object: "document", data: {}, nodes: [] };
    await admin.request(UpdateTranslation, { translationId: translation.body.id, instructions });
    const run = await admin.request(RunTranslation, { translationId: translation.body.id });
    expect(run.runTranslation?.translation).toEqual({ id: translation.body.id, status: "PENDING" });
    const translationPath = `/orgs/${org.organizationId}/translations/${translation.body.id}`;
    const readTranslation = await t.rest<{ status: string }>("GET", translationPath, {
      token: org.members.admin.token,
    });
    expect(readTranslation.body.status).toBe("pending");
    const wrongTranslation = { organizationId: outsider.organizationId, translationId: translation.body.id };
    expect((await refusalOf(admin.request(UpdateTranslation, { ...wrongTranslation, instructions })))?.code).toBe(
      "NOT_FOUND",
    );

    const samlPath = `/orgs/${org.organizationId}/saml`;
    const provider = await t.rest<{ id: string }>("POST", samlPath, {
      token: org.members.admin.token,
      body: { label: "Okta" },
    });
    const relabeled = await admin.request(UpdateSamlProvider, { samlProviderId: provider.body.id, label: "Entra" });
    expect(relabeled.updateOrganizationSAMLProvider?.samlProvider).toEqual({ id: provider.body.id, label: "Entra" });
    const readProvider = await t.rest<{ label: string }>("GET", `${samlPath}/${provider.body.id}`, {
      token: org.members.admin.token,
    });
    expect(readProvider.body.label).toBe("Entra");
    const wrongProvider = { organizationId: outsider.organizationId, samlProviderId: provider.body.id, label: "x" };
    expect((await refusalOf(admin.request(UpdateSamlProvider, wrongProvider)))?.code).toBe("NOT_FOUND");
    await admin.request(DeleteSamlProvider, { samlProviderId: provider.body.id });
    expect((await t.rest("GET", `${samlPath}/${provider.body.id}`, { token: org.members.admin.token })).status).toBe(
      404,
    );

    const invitePath = `/orgs/${org.organizationId}/link-invites`;
    const invite = await t.rest<{ id: string }>("POST", invitePath, {
      token: org.members.admin.token,
      body: { role: "read" },
    });
    const changed = await admin.request(UpdateInvite, { inviteId: invite.body.id });
    expect(changed.updateOrganizationInvite?.linkInvite).toEqual({ id: invite.body.id, role: "COMMENT" });
    const readInvite = await t.rest<{ role: string }>("GET", `${invitePath}/${invite.body.id}`, {
      token: org.members.admin.token,
    });
    expect(readInvite.body.role).toBe("comment");
    const wrongInvite = { organizationId: outsider.organizationId, inviteId: invite.body.id };
    expect((await refusalOf(admin.request(UpdateInvite, wrongInvite)))?.code).toBe("NOT_FOUND");
    const newcomer = await seedUser(t.db, "newcomer");
    const joiner = t.graphql(newcomer.token);
    expect((await refusalOf(joiner.request(JoinWithInvite, wrongInvite)))?.code).toBe("NOT_FOUND");
    const joined = await joiner.request(JoinWithInvite, { inviteId: invite.body.id });
    expect(joined.joinOrganizationWithInvite).toEqual({ joined: true, organization: { id: org.organizationId } });
    const member = await t.rest<{ role: string }>("GET", `/orgs/${org.organizationId}/members/${newcomer.id}`, {
      token: org.members.admin.token,
    });
    expect(member.body.role).toBe("comment");
    await admin.request(DeleteInvite, { inviteId: invite.body.id });
    expect((await t.rest("GET", `${invitePath}/${invite.body.id}`, { token: org.members.admin.token })).status).toBe(
      404,
    );
  });
});
