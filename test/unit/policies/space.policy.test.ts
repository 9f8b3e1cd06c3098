import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hasRole, roleOrder } from "../../../src/auth/roles.ts";
import type { Role } from "../../../src/db/generated/client.ts";
import {
  canCreateSpaces,
  canEditSpaceContent,
  canListCollections,
  canRestoreSpace,
  canTransferSpace,
  creatorReadsSpace,
  grantsMatter,
  roleFromGrants,
  type SpaceRoleFacts,
  spacePermissionsFor,
  spaceRetentionMs,
  spaceRoleAtLeast,
} from "../../../src/modules/space/space.policy.ts";
import { expectOrganizationRole } from "./organization-viewers.ts";

/* The effective role on a space (access.md), decided without a database. */

const member = (role: Role | null, disabled = false) => ({ role, disabled });
const space = (visibility: string, defaultLevel: Role | null = null, parentId: string | null = null) => ({
  visibility,
  defaultLevel,
  parentId,
});
const facts = (overrides: Partial<SpaceRoleFacts>): SpaceRoleFacts => ({
  membership: member("read"),
  space: space("private"),
  collectionDefaultLevel: null,
  grant: null,
  ...overrides,
});

describe("roleFromGrants", () => {
  it("makes an organization admin admin of every space, grants or not", () => {
    expect(roleFromGrants(facts({ membership: member("admin"), grant: "read" }))).toBe("admin");
    expect(roleFromGrants(facts({ membership: member("admin"), space: space("private") }))).toBe("admin");
  });

  it("gives non-members and disabled members read on public and unlisted spaces only", () => {
    for (const membership of [null, member("admin", true), member("edit", true)]) {
      expect(roleFromGrants(facts({ membership, space: space("public") }))).toBe("read");
      expect(roleFromGrants(facts({ membership, space: space("unlisted") }))).toBe("read");
      expect(roleFromGrants(facts({ membership, space: space("share-link", "admin"), grant: "admin" }))).toBeNull();
      expect(roleFromGrants(facts({ membership, space: space("private", "edit") }))).toBeNull();
    }
  });

  it("caps the space's default level at the member's organization role", () => {
    expect(roleFromGrants(facts({ membership: member("comment"), space: space("private", "admin") }))).toBe("comment");
    expect(roleFromGrants(facts({ membership: member("create"), space: space("private", "edit") }))).toBe("edit");
  });

  it("gives guests nothing by default: only their grants and open visibilities", () => {
    const guest = member(null);
    expect(roleFromGrants(facts({ membership: guest, space: space("private", "admin") }))).toBeNull();
    expect(roleFromGrants(facts({ membership: guest, space: space("private", "admin"), grant: "edit" }))).toBe("edit");
    expect(roleFromGrants(facts({ membership: guest, space: space("unlisted") }))).toBe("read");
  });

  it("keeps a private space without default level to its explicit grants, which are not capped", () => {
    expect(roleFromGrants(facts({ membership: member("read"), space: space("private") }))).toBeNull();
    expect(roleFromGrants(facts({ membership: member("read"), grant: "review" }))).toBe("review");
  });

  it("takes the highest of grant, capped default level and open read", () => {
    const edit = member("edit");
    expect(roleFromGrants(facts({ membership: edit, space: space("public", "comment"), grant: "read" }))).toBe(
      "comment",
    );
    expect(roleFromGrants(facts({ membership: edit, space: space("public") }))).toBe("read");
  });

  it("opens in-collection spaces to the parent collection's default level, and only those", () => {
    const opened = (visibility: string, parentId: string | null) =>
      roleFromGrants(
        facts({
          membership: member("review"),
          space: space(visibility, null, parentId),
          collectionDefaultLevel: "edit",
        }),
      );
    expect(opened("in-collection", "collection_1")).toBe("edit");
    expect(opened("in-collection", null)).toBeNull();
    expect(opened("private", "collection_1")).toBeNull();
    expect(
      roleFromGrants(
        facts({
          membership: member("comment"),
          space: space("in-collection", "read", "collection_1"),
          collectionDefaultLevel: "admin",
        }),
      ),
    ).toBe("comment");
  });
});

const role = fc.constantFrom(...roleOrder);
const level = fc.option(role, { nil: null });
const anyFacts: fc.Arbitrary<SpaceRoleFacts> = fc.record({
  membership: fc.option(fc.record({ role: level, disabled: fc.boolean() }), { nil: null }),
  space: fc.record({
    visibility: fc.constantFrom("public", "unlisted", "share-link", "visitor-auth", "in-collection", "private"),
    defaultLevel: level,
    parentId: fc.option(fc.constant("collection_1"), { nil: null }),
  }),
  collectionDefaultLevel: level,
  grant: level,
});

describe("roleFromGrants, over all facts", () => {
  it("reads no grant or collection when grantsMatter says they cannot count", () => {
    fc.assert(
      fc.property(anyFacts, level, level, (given, grant, collectionDefaultLevel) => {
        fc.pre(!grantsMatter(given.membership));
        expect(roleFromGrants({ ...given, grant, collectionDefaultLevel })).toBe(roleFromGrants(given));
      }),
    );
  });

  it("never gives less than an enabled member's grant, nor more than their role without one", () => {
    fc.assert(
      fc.property(anyFacts, (given) => {
        fc.pre(grantsMatter(given.membership));
        const result = roleFromGrants(given);
        if (given.grant) expect(hasRole(result, given.grant)).toBe(true);
        const open = given.space.visibility === "public" || given.space.visibility === "unlisted";
        if (!given.grant && !open && result) expect(hasRole(given.membership?.role, result)).toBe(true);
      }),
    );
  });
});

describe("space decisions", () => {
  const target = { id: "space_1", editMode: "live" };
  const roles: (Role | null)[] = [null, ...roleOrder];

  it("hides a space from a viewer with no role on it, refuses one below the role, admits the rest", () => {
    for (const role of roles) {
      const decision = spaceRoleAtLeast(role, target, "review");
      if (!role) expect(decision).toEqual({ allowed: false, error: "not-found", message: "Space space_1 not found" });
      else if (hasRole(role, "review")) expect(decision).toEqual({ allowed: true });
      else {
        expect(decision).toEqual({
          allowed: false,
          error: "forbidden",
          message: "This operation needs the review role on the space",
        });
      }
    }
  });

  it("lets edit and above change the content of a live space, and no one that of a locked one", () => {
    for (const role of roles) {
      expect(canEditSpaceContent(role, target).allowed, String(role)).toBe(hasRole(role, "edit"));
    }
    expect(canEditSpaceContent("admin", { id: "space_1", editMode: "locked" })).toEqual({
      allowed: false,
      error: "forbidden",
      message: "The space is locked: its content cannot be edited",
    });
    expect(canEditSpaceContent("read", { id: "space_1", editMode: "locked" }).allowed).toBe(false);
  });

  it("gives the permissions booleans of access.md by role", () => {
    const least = {
      view: "read",
      access: "read",
      comment: "comment",
      edit: "edit",
      review: "review",
      merge: "review",
      triggerGitSync: "create",
      viewInviteLinks: "create",
      admin: "admin",
      installIntegration: "admin",
    } as const;
    for (const role of roles) {
      const permissions = spacePermissionsFor({ editMode: "live" }, role);
      for (const [name, needed] of Object.entries(least)) {
        expect(permissions[name as keyof typeof least], `${role} ${name}`).toBe(hasRole(role, needed));
      }
      expect(spacePermissionsFor({ editMode: "locked" }, role).edit).toBe(false);
    }
  });

  it("needs the organization create role to create spaces and collections", () =>
    expectOrganizationRole(canCreateSpaces, "create"));
  it("lets members with a role list collections and a member's spaces", () =>
    expectOrganizationRole(canListCollections, "read"));
  it("leaves transfers to organization admins", () => expectOrganizationRole(canTransferSpace, "admin"));
});

describe("restoring a space", () => {
  const now = new Date("2026-01-10T00:00:00Z");
  const deletedAgo = (ms: number) => ({ id: "space_1", deletedAt: new Date(now.getTime() - ms) });

  it("leaves restore to space admins, and hides the space from callers with no role", () => {
    for (const role of [null, ...roleOrder]) {
      const decision = canRestoreSpace(role, deletedAgo(1000), now);
      if (!role) expect(decision.allowed === false && decision.error).toBe("not-found");
      else expect(decision.allowed, role).toBe(role === "admin");
    }
  });

  it("hides a space past its 7 days of retention, even from its admins", () => {
    expect(spaceRetentionMs).toBe(7 * 24 * 60 * 60 * 1000);
    expect(canRestoreSpace("admin", deletedAgo(spaceRetentionMs), now).allowed).toBe(true);
    expect(canRestoreSpace("admin", deletedAgo(spaceRetentionMs + 1), now)).toEqual({
      allowed: false,
      error: "not-found",
      message: "Space space_1 not found",
    });
  });

  it("lets a creator read the space they made (they hold an admin grant on it)", () => {
    expect(creatorReadsSpace({ id: "space_1" }).allowed).toBe(true);
  });
});
