import { beforeAll, describe, expect, it } from "vitest";
import type { Role } from "../../src/db/generated/client.ts";
import { addMember } from "../../src/modules/user/user.service.ts";
import { newId } from "../../src/platform/ids.ts";
import { createSpace } from "../factories.ts";
import {
  type SeededOrganization,
  type SeededUser,
  seedOrganization,
  seedUser,
  startTestApp,
  type TestApp,
} from "../helpers/app.ts";
import { expectMatchesSpec } from "../helpers/contract.ts";

const day = 24 * 60 * 60 * 1000;

let t: TestApp;
let org: SeededOrganization;
let other: SeededOrganization;

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "Spaces Org");
  other = await seedOrganization(t.db, "Other Org");
});

type SpaceBody = {
  id: string;
  title: string;
  emoji: string;
  visibility: string;
  editMode: string;
  defaultLevel: Role | null;
  parent?: string;
  organization: string;
  language?: string;
  deletedAt?: string;
  comments: number;
  permissions: Record<string, boolean>;
};

async function patch(spaceId: string, body: unknown, user: SeededUser = org.members.admin) {
  return t.rest<SpaceBody>("PATCH", `/spaces/${spaceId}`, { token: user.token, body });
}

async function setVisibility(spaceId: string, visibility: string) {
  return t
    .graphql(org.members.admin.token)
    .request<{ updateSpaceVisibility: { space: { visibility: string } } }>(
      `mutation($id: ID!, $v: SpaceVisibility!) { updateSpaceVisibility(input: { spaceId: $id, visibility: $v }) { space { visibility } } }`,
      { id: spaceId, v: visibility },
    );
}

async function permissionsOf(spaceId: string, user: SeededUser) {
  const response = await t.rest<SpaceBody>("GET", `/spaces/${spaceId}`, { token: user.token });
  if (response.status !== 200) return response.status;
  expectMatchesSpec("getSpaceById", 200, response.body);
  const granted = Object.entries(response.body.permissions).filter(([, value]) => value);
  return granted.map(([name]) => name).sort();
}

const readPermissions = ["access", "view"];
const commentPermissions = [...readPermissions, "comment"].sort();
const editPermissions = [...commentPermissions, "edit"].sort();
const reviewPermissions = [...editPermissions, "merge", "review"].sort();
const createPermissions = [...reviewPermissions, "triggerGitSync", "viewInviteLinks"].sort();
const adminPermissions = [...createPermissions, "admin", "installIntegration"].sort();

describe("spaces", () => {
  it("creates, reads, updates and lists a space", async () => {
    const created = await createSpace<SpaceBody>(t, org, {
      title: "Handbook",
      emoji: "📘",
      language: "pt-br",
      editMode: "live",
    });
    expect(created).toMatchObject({
      title: "Handbook",
      emoji: "📘",
      language: "pt-br",
      visibility: "private",
      editMode: "live",
      organization: org.organizationId,
      defaultLevel: "admin",
      comments: 0,
    });

    const read = await t.rest<SpaceBody>("GET", `/spaces/${created.id}`, {
      token: org.members.read.token,
      query: { shareKey: "anything" },
    });
    expect(read.status).toBe(200);
    expectMatchesSpec("getSpaceById", 200, read.body);
    // An admin's read: the space with its Git sync state and the caller's membership in one statement (the token,
    // seen before, is cached; an admin's grants are not read: nothing ranks above admin). A reader's adds their grants.
    const statementsOf = async (token: string) => {
      const before = t.db.statementCount();
      expect((await t.rest("GET", `/spaces/${created.id}`, { token })).status).toBe(200);
      return t.db.statementCount() - before;
    };
    expect(await statementsOf(org.members.admin.token)).toBe(1);
    expect(await statementsOf(org.members.read.token)).toBe(2);

    const updated = await patch(created.id, {
      title: "Staff handbook",
      emoji: null,
      editMode: "locked",
      defaultLevel: null,
      language: "fr",
      mergeRules: { type: "rules", rules: [{ rule: "require_specific_reviewers", users: [org.members.review.id] }] },
    });
    expect(updated.status).toBe(200);
    expectMatchesSpec("updateSpaceById", 200, updated.body);
    expect(updated.body).toMatchObject({ title: "Staff handbook", emoji: "", editMode: "locked", language: "fr" });
    // defaultLevel null is sent, not dropped.
    expect(updated.body.defaultLevel).toBeNull();
    expect(updated.body.permissions.edit).toBe(false);

    const list = await t.rest<{ items: SpaceBody[]; count: number }>("GET", `/orgs/${org.organizationId}/spaces`, {
      token: org.members.admin.token,
    });
    expect(list.status).toBe(200);
    expectMatchesSpec("listSpacesInOrganizationById", 200, list.body);
    expect(list.body.items.map((space) => space.id)).toContain(created.id);
  });

  it("refuses bad input with 400", async () => {
    const space = await createSpace<SpaceBody>(t, org);
    for (const body of [
      { title: "x".repeat(51) },
      { title: "" },
      { emoji: "x".repeat(51) },
      { editMode: "frozen" },
      { language: "xx" },
      { defaultLevel: "owner" },
      { mergeRules: { type: "sometimes" } },
      { visibility: "public" },
      { unknown: true },
    ]) {
      const response = await patch(space.id, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body).toMatchObject({ error: { code: 400 } });
    }
    for (const body of [{ title: "x".repeat(51) }, { language: "klingon" }, { parent: "col_missing" }]) {
      const response = await t.rest("POST", `/orgs/${org.organizationId}/spaces`, {
        token: org.members.admin.token,
        body,
      });
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
    await expect(setVisibility(space.id, "IN_COLLECTION")).rejects.toThrow(/only for spaces in a collection/);
    await expect(setVisibility(space.id, "EVERYONE")).rejects.toThrow(
      /got invalid value "EVERYONE"; Expected type SpaceVisibility/,
    );
  });

  it("computes permissions from the organization role, defaultLevel and grants", async () => {
    const space = await createSpace<SpaceBody>(t, org);
    // defaultLevel admin, capped at each member's role: every member gets their organization role.
    expect(await permissionsOf(space.id, org.members.admin)).toEqual(adminPermissions);
    expect(await permissionsOf(space.id, org.members.create)).toEqual(createPermissions);
    expect(await permissionsOf(space.id, org.members.review)).toEqual(reviewPermissions);
    expect(await permissionsOf(space.id, org.members.edit)).toEqual(editPermissions);
    expect(await permissionsOf(space.id, org.members.comment)).toEqual(commentPermissions);
    expect(await permissionsOf(space.id, org.members.read)).toEqual(readPermissions);
    expect(await permissionsOf(space.id, org.members.guest)).toBe(404);
    expect(await permissionsOf(space.id, other.members.admin)).toBe(404);

    expect((await patch(space.id, { defaultLevel: "comment" })).status).toBe(200);
    expect(await permissionsOf(space.id, org.members.create)).toEqual(commentPermissions);
    expect(await permissionsOf(space.id, org.members.read)).toEqual(readPermissions);

    expect((await patch(space.id, { defaultLevel: null })).status).toBe(200);
    expect(await permissionsOf(space.id, org.members.admin)).toEqual(adminPermissions);
    expect(await permissionsOf(space.id, org.members.create)).toBe(404);

    // Grants: a user grant, a team grant, and a guest's grant.
    const team = await t.rest<{ id: string }>("PUT", `/orgs/${org.organizationId}/teams`, {
      token: org.members.admin.token,
      body: { title: "Reviewers", members: [org.members.comment.id] },
    });
    const invite = (body: unknown, user = org.members.admin) =>
      t.rest("POST", `/spaces/${space.id}/permissions`, { token: user.token, body });
    expect((await invite({ role: "edit", users: [org.members.read.id, org.members.guest.id] })).status).toBe(204);
    expect((await invite({ role: "review", teams: [team.body.id] })).status).toBe(204);
    expect(await permissionsOf(space.id, org.members.read)).toEqual(editPermissions);
    expect(await permissionsOf(space.id, org.members.guest)).toEqual(editPermissions);
    expect(await permissionsOf(space.id, org.members.comment)).toEqual(reviewPermissions);
    expect(await permissionsOf(space.id, org.members.edit)).toBe(404);

    // A grant wins over a lower default level.
    expect((await patch(space.id, { defaultLevel: "read" })).status).toBe(200);
    expect(await permissionsOf(space.id, org.members.read)).toEqual(editPermissions);
    expect(await permissionsOf(space.id, org.members.edit)).toEqual(readPermissions);

    expect((await invite({ role: null, users: [org.members.read.id] })).status).toBe(204);
    expect(await permissionsOf(space.id, org.members.read)).toEqual(readPermissions);

    expect((await invite({ role: "edit", users: [other.members.read.id] })).status).toBe(400);
    expect((await invite({ role: "edit" })).status).toBe(400);
    expect((await invite({ role: "edit", users: [org.members.read.id] }, org.members.create)).status).toBe(403);
    expect((await invite({ role: "edit", users: [org.members.read.id] }, other.members.admin)).status).toBe(404);
  });

  it("opens public and unlisted spaces to everyone signed in, read only", async () => {
    const space = await createSpace<SpaceBody>(t, org);
    await patch(space.id, { defaultLevel: null });
    expect(await permissionsOf(space.id, other.members.admin)).toBe(404);
    await setVisibility(space.id, "UNLISTED");
    expect(await permissionsOf(space.id, other.members.admin)).toEqual(readPermissions);
    expect(await permissionsOf(space.id, org.members.guest)).toEqual(readPermissions);
    expect((await patch(space.id, { title: "Mine now" }, other.members.admin)).status).toBe(403);
    const outsiderList = await t.rest("GET", `/orgs/${org.organizationId}/spaces`, {
      token: other.members.admin.token,
    });
    expect(outsiderList.status).toBe(404);
  });

  it("answers 404 to other tenants and 403 to too low a role", async () => {
    const space = await createSpace<SpaceBody>(t, org);
    expect((await patch(space.id, { title: "Nope" }, other.members.admin)).status).toBe(404);
    expect((await patch(space.id, { title: "Nope" }, org.members.create)).status).toBe(403);
    expect((await t.rest("DELETE", `/spaces/${space.id}`, { token: other.members.admin.token })).status).toBe(404);
    expect((await t.rest("DELETE", `/spaces/${space.id}`, { token: org.members.edit.token })).status).toBe(403);
    expect((await t.rest("GET", `/spaces/space_missing`, { token: org.members.admin.token })).status).toBe(404);
    expect((await t.rest("GET", `/spaces/${space.id}`)).status).toBe(401);
    const create = await t.rest("POST", `/orgs/${org.organizationId}/spaces`, {
      token: org.members.review.token,
      body: { title: "Nope" },
    });
    expect(create.status).toBe(403);
    expect(
      (await t.rest("POST", `/orgs/${other.organizationId}/spaces`, { token: org.members.admin.token, body: {} }))
        .status,
    ).toBe(404);
  });

  it("lets the creator administer a space created with the create role", async () => {
    const space = await createSpace<SpaceBody>(t, org, { title: "Mine" }, org.members.create);
    expect((await patch(space.id, { defaultLevel: null }, org.members.create)).status).toBe(200);
    expect(await permissionsOf(space.id, org.members.create)).toEqual(adminPermissions);
    expect(await permissionsOf(space.id, org.members.review)).toBe(404);
  });

  it("soft-deletes, restores within 7 days and purges after", async () => {
    const space = await createSpace<SpaceBody>(t, org, { title: "Ephemeral" });
    const member = `/orgs/${org.organizationId}/members/${org.members.admin.id}/spaces`;
    const deleted = await t.rest("DELETE", `/spaces/${space.id}`, { token: org.members.admin.token });
    expect(deleted.status).toBe(204);
    expectMatchesSpec("deleteSpaceById", 204, deleted.body);
    expect((await t.rest("DELETE", `/spaces/${space.id}`, { token: org.members.admin.token })).status).toBe(204);
    expect((await t.rest("DELETE", `/spaces/space_missing`, { token: org.members.admin.token })).status).toBe(204);
    expect((await t.rest("GET", `/spaces/${space.id}`, { token: org.members.admin.token })).status).toBe(404);
    const list = await t.rest<{ items: SpaceBody[] }>("GET", `/orgs/${org.organizationId}/spaces`, {
      token: org.members.admin.token,
      query: { limit: 1000 },
    });
    expect(list.body.items.map((item) => item.id)).not.toContain(space.id);
    const mine = await t.rest<{ items: { space: SpaceBody }[] }>("GET", member, { token: org.members.admin.token });
    expect(mine.body.items.map((item) => item.space.id)).not.toContain(space.id);
    const node = await t
      .graphql(org.members.admin.token)
      .request<{ node: unknown }>(`query($id: ID!) { node(id: $id) { id } }`, { id: space.id });
    expect(node.node).toBeNull();

    expect((await t.rest("POST", `/spaces/${space.id}/restore`, { token: org.members.edit.token })).status).toBe(403);
    expect((await t.rest("POST", `/spaces/${space.id}/restore`, { token: other.members.admin.token })).status).toBe(
      404,
    );
    t.clock.advance(6 * day);
    const restored = await t.rest<SpaceBody>("POST", `/spaces/${space.id}/restore`, { token: org.members.admin.token });
    expect(restored.status).toBe(200);
    expectMatchesSpec("restoreSpace", 200, restored.body);
    expect(restored.body.deletedAt).toBeUndefined();
    expect((await t.rest("GET", `/spaces/${space.id}`, { token: org.members.admin.token })).status).toBe(200);

    // Deleted again, past the 7 days: restore answers 404 and the purge job removes it.
    const recent = await createSpace<SpaceBody>(t, org, { title: "Recent" });
    await t.rest("DELETE", `/spaces/${space.id}`, { token: org.members.admin.token });
    t.clock.advance(7 * day + 1000);
    await t.rest("DELETE", `/spaces/${recent.id}`, { token: org.members.admin.token });
    expect((await t.rest("POST", `/spaces/${space.id}/restore`, { token: org.members.admin.token })).status).toBe(404);
    expect(await t.db.prisma.space.count({ where: { id: space.id } })).toBe(1);
    // The hourly purge (the engine's schedule) removes only what is past the 7 days.
    expect(await t.runScheduledJobs()).toBeGreaterThan(0);
    expect(await t.db.prisma.space.count({ where: { id: space.id } })).toBe(0);
    expect(await t.db.prisma.space.count({ where: { id: recent.id } })).toBe(1);
    t.clock.advance(8 * day);
    expect(await t.runScheduledJobs()).toBeGreaterThan(0);
    expect(await t.db.prisma.space.count({ where: { id: recent.id } })).toBe(0);
  });

  it("duplicates a space with its settings and grants", async () => {
    const space = await createSpace<SpaceBody>(t, org, { title: "Original", emoji: "🎉", language: "de" });
    await patch(space.id, { defaultLevel: "comment", editMode: "locked" });
    await t.rest("POST", `/spaces/${space.id}/permissions`, {
      token: org.members.admin.token,
      body: { role: "review", users: [org.members.read.id] },
    });
    const copy = await t.rest<SpaceBody>("POST", `/spaces/${space.id}/duplicate`, { token: org.members.admin.token });
    expect(copy.status).toBe(201);
    expectMatchesSpec("duplicateSpace", 201, copy.body);
    expect(copy.body).toMatchObject({
      title: "Original (copy)",
      emoji: "🎉",
      language: "de",
      defaultLevel: "comment",
      editMode: "locked",
    });
    expect(copy.body.id).not.toBe(space.id);
    expect(await permissionsOf(copy.body.id, org.members.read)).toEqual(
      reviewPermissions.filter((name) => name !== "edit"),
    );
    expect((await t.rest("POST", `/spaces/${space.id}/duplicate`, { token: org.members.review.token })).status).toBe(
      403,
    );
  });

  it("moves spaces between collections and orders siblings", async () => {
    const collection = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/collections`, {
      token: org.members.admin.token,
      body: { title: "Guides" },
    });
    expect(collection.status).toBe(201);
    expectMatchesSpec("createCollection", 201, collection.body);
    const collections = await t.rest("GET", `/orgs/${org.organizationId}/collections`, {
      token: org.members.read.token,
    });
    expect(collections.status).toBe(200);
    expectMatchesSpec("listCollectionsInOrganizationById", 200, collections.body);

    const parent = collection.body.id;
    const [a, b, c] = [
      await createSpace<SpaceBody>(t, org, { title: "A", parent }),
      await createSpace<SpaceBody>(t, org, { title: "B", parent }),
    ].concat(await createSpace<SpaceBody>(t, org, { title: "C" })) as [SpaceBody, SpaceBody, SpaceBody];
    const order = async () =>
      (
        await t.db.prisma.space.findMany({ where: { parentId: parent, deletedAt: null }, orderBy: { position: "asc" } })
      ).map((space) => space.title);
    expect(await order()).toEqual(["A", "B"]);

    const move = (spaceId: string, body: unknown) =>
      t.rest<SpaceBody>("POST", `/spaces/${spaceId}/move`, { token: org.members.admin.token, body });
    const moved = await move(c.id, { parent, position: { before: { type: "space", space: a.id } } });
    expect(moved.status).toBe(200);
    expectMatchesSpec("moveSpace", 200, moved.body);
    expect(moved.body.parent).toBe(parent);
    expect(await order()).toEqual(["C", "A", "B"]);
    expect((await move(c.id, { position: { after: { type: "space", space: b.id } } })).status).toBe(200);
    expect(await order()).toEqual(["A", "B", "C"]);
    expect((await move(a.id, { position: { after: { type: "space", space: b.id } } })).status).toBe(200);
    expect(await order()).toEqual(["B", "A", "C"]);

    // in-collection works inside a collection and falls back to private at the root.
    await setVisibility(a.id, "IN_COLLECTION");
    const root = await move(a.id, { parent: null });
    expect(root.status).toBe(200);
    expect(root.body.parent).toBeUndefined();
    expect(root.body.visibility).toBe("private");
    expect(await order()).toEqual(["B", "C"]);

    for (const body of [
      {},
      { parent: "col_missing" },
      { position: { before: { type: "space", space: a.id } } },
      { position: { before: { type: "space", space: a.id }, after: { type: "space", space: a.id } } },
    ]) {
      expect((await move(b.id, body)).status, JSON.stringify(body)).toBe(400);
    }
    expect(
      (await t.rest("POST", `/spaces/${b.id}/move`, { token: org.members.edit.token, body: { parent: null } })).status,
    ).toBe(403);
  });

  it("transfers a space to another organization administered by the caller", async () => {
    const source = await seedOrganization(t.db, "Transfer Source");
    const target = await seedOrganization(t.db, "Transfer Target");
    const admin = source.members.admin;
    const created = await t.rest<SpaceBody>("POST", `/orgs/${source.organizationId}/spaces`, {
      token: admin.token,
      body: { title: "Moving" },
    });
    const spaceId = created.body.id;
    const team = await t.rest<{ id: string }>("PUT", `/orgs/${source.organizationId}/teams`, {
      token: admin.token,
      body: { title: "Team" },
    });
    // The read member of the source is also a member of the target; the edit member is not.
    await addMember(t.db.prisma, target.organizationId, source.members.read.id, "read", new Date());
    await t.rest("POST", `/spaces/${spaceId}/permissions`, {
      token: admin.token,
      body: { role: "edit", users: [source.members.read.id, source.members.edit.id], teams: [team.body.id] },
    });
    const site = await t.db.prisma.site.create({
      data: { id: newId("Site"), organizationId: source.organizationId, title: "Docs", visitorAuthKey: "k" },
    });
    await t.db.prisma.siteSpace.create({ data: { id: newId("SiteSpace"), siteId: site.id, spaceId, path: "docs" } });

    const transfer = (user: SeededUser) =>
      t.rest<SpaceBody>("POST", `/spaces/${spaceId}/transfer`, {
        token: user.token,
        body: { organization: target.organizationId },
      });
    expect((await transfer(admin)).status).toBe(404);
    await addMember(t.db.prisma, target.organizationId, admin.id, "edit", new Date());
    expect((await transfer(admin)).status).toBe(403);
    await t.db.prisma.member.update({
      where: { organizationId_userId: { organizationId: target.organizationId, userId: admin.id } },
      data: { role: "admin" },
    });
    expect((await t.rest("POST", `/spaces/${spaceId}/transfer`, { token: admin.token, body: {} })).status).toBe(400);
    const done = await transfer(admin);
    expect(done.status).toBe(200);
    expectMatchesSpec("transferSpace", 200, done.body);
    expect(done.body.organization).toBe(target.organizationId);

    const grants = await t.db.prisma.spacePermission.findMany({ where: { spaceId } });
    expect(grants.map((grant) => grant.userId).sort()).toEqual([admin.id, source.members.read.id].sort());
    expect(await t.db.prisma.siteSpace.count({ where: { spaceId } })).toBe(0);
    expect(await permissionsOf(spaceId, source.members.edit)).toBe(404);
    expect(await permissionsOf(spaceId, target.members.read)).toEqual(readPermissions);
  });

  it("lists a member's spaces and counts them on members and teams", async () => {
    const group = await seedOrganization(t.db, "Member Spaces");
    const admin = group.members.admin;
    const user = group.members.comment;
    const make = async (title: string) =>
      (
        await t.rest<SpaceBody>("POST", `/orgs/${group.organizationId}/spaces`, {
          token: admin.token,
          body: { title },
        })
      ).body;
    const first = await make("First");
    t.clock.advance(1000);
    const second = await make("Second");
    t.clock.advance(1000);
    const third = await make("Third");
    const team = await t.rest<{ id: string }>("PUT", `/orgs/${group.organizationId}/teams`, {
      token: admin.token,
      body: { title: "Team", members: [user.id] },
    });
    const invite = (spaceId: string, body: unknown) =>
      t.rest("POST", `/spaces/${spaceId}/permissions`, { token: admin.token, body });
    await invite(first.id, { role: "edit", users: [user.id] });
    await invite(first.id, { role: "review", teams: [team.body.id] });
    await invite(second.id, { role: "read", teams: [team.body.id] });
    await invite(third.id, { role: "read", users: [user.id] });
    await t.rest("DELETE", `/spaces/${third.id}`, { token: admin.token });

    const path = `/orgs/${group.organizationId}/members/${user.id}/spaces`;
    const list = await t.rest<{ items: { permission: Role; space: SpaceBody }[]; count: number }>("GET", path, {
      token: group.members.read.token,
      query: { order: "asc" },
    });
    expect(list.status).toBe(200);
    expectMatchesSpec("listSpacesForOrganizationMember", 200, list.body);
    expect(list.body.items.map((item) => [item.space.title, item.permission])).toEqual([
      ["First", "review"],
      ["Second", "read"],
    ]);
    expect(list.body.count).toBe(2);
    const desc = await t.rest<{ items: { space: SpaceBody }[] }>("GET", path, { token: admin.token });
    expect(desc.body.items.map((item) => item.space.title)).toEqual(["Second", "First"]);
    const paged = await t.rest<{ items: unknown[]; next?: { page: string } }>("GET", path, {
      token: admin.token,
      query: { limit: 1 },
    });
    expect(paged.body.items).toHaveLength(1);
    expect(paged.body.next?.page).toBeTruthy();
    expect((await t.rest("GET", path, { token: admin.token, query: { order: "up" } })).status).toBe(400);
    expect((await t.rest("GET", path, { token: other.members.admin.token })).status).toBe(404);
    expect(
      (await t.rest("GET", `/orgs/${group.organizationId}/members/user_missing/spaces`, { token: admin.token })).status,
    ).toBe(404);

    const member = await t.rest<{ spaces: number }>("GET", `/orgs/${group.organizationId}/members/${user.id}`, {
      token: admin.token,
    });
    expect(member.body.spaces).toBe(2);
    const teamBody = await t.rest<{ spaces: number }>("GET", `/orgs/${group.organizationId}/teams/${team.body.id}`, {
      token: admin.token,
    });
    expect(teamBody.body.spaces).toBe(2);
  });

  it("lets guests list only the spaces they were invited to", async () => {
    const guest = await seedUser(t.db, "space-guest");
    await addMember(t.db.prisma, org.organizationId, guest.id, null, new Date());
    const space = await createSpace<SpaceBody>(t, org, { title: "Guest room" });
    await t.rest("POST", `/spaces/${space.id}/permissions`, {
      token: org.members.admin.token,
      body: { role: "read", users: [guest.id] },
    });
    const list = await t.rest<{ items: SpaceBody[] }>("GET", `/orgs/${org.organizationId}/spaces`, {
      token: guest.token,
    });
    expect(list.status).toBe(200);
    const ids = list.body.items.map((item) => item.id);
    expect(ids).toContain(space.id);
    // Besides invitations, guests see only public and unlisted spaces (an earlier test made one unlisted).
    expect(list.body.items.filter((item) => item.id !== space.id).map((item) => item.visibility)).toEqual(["unlisted"]);
  });
});
