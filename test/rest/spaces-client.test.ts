import { type GitBookAPI, MemberRole, SpaceEditMode } from "@gitbook/api";
import { beforeAll, describe, expect, it } from "vitest";
import type { SeededOrganization } from "../helpers/app.ts";
import { expectMatchesSpec } from "../helpers/contract.ts";
import { startOfficialClient } from "../helpers/official-client.ts";

// The official client, unchanged, driving the space endpoints on a listening server.
let org: SeededOrganization;
let api: GitBookAPI;

beforeAll(async () => {
  ({ org, api } = await startOfficialClient("Spaces Client Org"));
});

describe("@gitbook/api GitBookAPI: spaces", () => {
  it("creates, lists, updates, duplicates, moves, deletes and restores spaces", async () => {
    const collection = await api.orgs.createCollection(org.organizationId, { title: "Guides" });
    expectMatchesSpec("createCollection", collection.status, collection.data);

    const created = await api.orgs.createSpace(org.organizationId, { title: "Client space", emoji: "🚀" });
    expect(created.status).toBe(201);
    expectMatchesSpec("createSpace", created.status, created.data);
    const spaceId = created.data.id;

    const list = await api.orgs.listSpacesInOrganizationById(org.organizationId, { limit: 10 });
    expectMatchesSpec("listSpacesInOrganizationById", list.status, list.data);
    expect(list.data.items.map((space) => space.id)).toEqual([spaceId]);

    const updated = await api.spaces.updateSpaceById(spaceId, { title: "Renamed", editMode: SpaceEditMode.Locked });
    expectMatchesSpec("updateSpaceById", updated.status, updated.data);
    expect(updated.data).toMatchObject({ title: "Renamed", editMode: SpaceEditMode.Locked });

    const one = await api.spaces.getSpaceById(spaceId);
    expectMatchesSpec("getSpaceById", one.status, one.data);

    await api.spaces.inviteToSpace(spaceId, { role: MemberRole.Edit, users: [org.members.read.id] });
    const memberSpaces = await api.orgs.listSpacesForOrganizationMember(org.organizationId, org.members.read.id);
    expectMatchesSpec("listSpacesForOrganizationMember", memberSpaces.status, memberSpaces.data);
    expect(memberSpaces.data.items).toEqual([expect.objectContaining({ permission: "edit" })]);

    const copy = await api.spaces.duplicateSpace(spaceId);
    expect(copy.status).toBe(201);
    expectMatchesSpec("duplicateSpace", copy.status, copy.data);

    const moved = await api.spaces.moveSpace(copy.data.id, {
      parent: collection.data.id,
    });
    expectMatchesSpec("moveSpace", moved.status, moved.data);
    expect(moved.data.parent).toBe(collection.data.id);

    const deleted = await api.spaces.deleteSpaceById(spaceId);
    expect(deleted.status).toBe(204);
    const restored = await api.spaces.restoreSpace(spaceId);
    expectMatchesSpec("restoreSpace", restored.status, restored.data);

    await expect(api.spaces.getSpaceById("space_missing")).rejects.toMatchObject({ code: 404 });
  });
});
