import { describe, expect, it } from "vitest";
import { expectMatchesSpec, responseSchemaFor, specOperation } from "../helpers/contract.ts";

const NOW = "2024-05-01T12:00:00.000Z";

function validOrganization(): Record<string, unknown> {
  return {
    object: "organization",
    id: "org_abc123",
    title: "Acme Inc",
    createdAt: NOW,
    emailDomains: ["acme.test"],
    type: "business",
    defaultRole: null, // MemberRoleOrGuest: `oneOf: [MemberRole, {type: "null"}]`
    sso: false,
    ai: true,
    inviteLinks: true,
    plan: "free",
    mergeRules: { type: "none" },
    urls: {
      location: "https://api.example.test/v1/orgs/org_abc123",
      app: "https://app.example.test/o/org_abc123/",
    },
    trial: { status: "none", count: 0 },
    permissions: {
      view: true,
      access: true,
      admin: true,
      ownTeam: true,
      createContent: true,
      createOpenAPISpec: true,
      viewBilling: true,
      listMembers: true,
      listTeams: true,
      listIntegrations: true,
      listInstallations: true,
      installIntegration: true,
    },
  };
}

function validMember(): Record<string, unknown> {
  return {
    object: "member",
    id: "usr_1",
    role: "admin",
    user: {
      object: "user",
      id: "usr_1",
      displayName: "Ada Lovelace",
      email: "ada@example.test",
      urls: { location: "https://api.example.test/v1/users/usr_1" },
    },
    disabled: false,
    joinedAt: NOW,
    lastSeenAt: NOW,
    sso: false,
    spaces: 0,
    teams: 1,
  };
}

function errorMessageOf(fn: () => void): string {
  try {
    fn();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("expected the call to throw");
}

describe("contract helper", () => {
  it("exposes the spec method and path of an operation", () => {
    expect(specOperation("getOrganizationById")).toEqual({ method: "GET", path: "/orgs/{organizationId}" });
    expect(specOperation("removeMemberFromOrganizationById")).toEqual({
      method: "DELETE",
      path: "/orgs/{organizationId}/members/{userId}",
    });
  });

  it("returns the declared response schema, or undefined when there is no body", () => {
    expect(responseSchemaFor("getOrganizationById", 200)).toEqual({ $ref: "#/components/schemas/Organization" });
    expect(responseSchemaFor("removeMemberFromOrganizationById", 204)).toBeUndefined();
    expect(responseSchemaFor("removeMemberFromOrganizationById", 205)).toBeUndefined();
    expect(() => responseSchemaFor("getOrganizationById", 201)).toThrow(/not declared/);
  });

  it("accepts a valid organization", () => {
    expect(() => expectMatchesSpec("getOrganizationById", 200, validOrganization())).not.toThrow();
    // Optional fields may be absent; nullable ones may hold a real value.
    const minimal = validOrganization();
    delete minimal.defaultRole;
    delete minimal.sso;
    delete minimal.ai;
    expect(() => expectMatchesSpec("getOrganizationById", 200, minimal)).not.toThrow();
    expect(() =>
      expectMatchesSpec("updateOrganizationById", 200, { ...validOrganization(), defaultRole: "read" }),
    ).not.toThrow();
  });

  it("rejects an organization with a wrong type, naming the field", () => {
    const message = errorMessageOf(() =>
      expectMatchesSpec("getOrganizationById", 200, { ...validOrganization(), title: 42 }),
    );
    expect(message).toContain("getOrganizationById (GET /orgs/{organizationId}) 200");
    expect(message).toMatch(/\/title: must be string — got 42/);
    expect(message).toContain("Body: {");
  });

  it("rejects an organization with a missing required field, naming the field", () => {
    const body = validOrganization();
    delete body.permissions;
    const message = errorMessageOf(() => expectMatchesSpec("getOrganizationById", 200, body));
    expect(message).toMatch(/\(root\): must have required property 'permissions'/);
  });

  it("rejects bad enum values, nulls and formats", () => {
    expect(() => expectMatchesSpec("getOrganizationById", 200, { ...validOrganization(), plan: "gold" })).toThrow(
      /\/plan: must be equal to one of the allowed values \(.*"free".*\)/,
    );
    expect(() => expectMatchesSpec("getOrganizationById", 200, { ...validOrganization(), title: null })).toThrow(
      /\/title: must be string/,
    );
    expect(() =>
      expectMatchesSpec("getOrganizationById", 200, { ...validOrganization(), createdAt: "yesterday" }),
    ).toThrow(/\/createdAt: must match format "date-time"/);
  });

  it("validates list envelopes", () => {
    expect(() =>
      expectMatchesSpec("listMembersInOrganizationById", 200, { items: [validMember()], count: 1 }),
    ).not.toThrow();
    expect(() =>
      expectMatchesSpec("listMembersInOrganizationById", 200, {
        items: [validMember()],
        next: { page: "cursor_2" },
        count: 10,
      }),
    ).not.toThrow();
    expect(() => expectMatchesSpec("listMembersInOrganizationById", 200, { items: "x" })).toThrow(
      /\/items: must be array/,
    );
    expect(() => expectMatchesSpec("listMembersInOrganizationById", 200, { count: 0 })).toThrow(
      /must have required property 'items'/,
    );
    const badMember = { ...validMember(), user: { object: "user", id: "usr_1" } };
    expect(() => expectMatchesSpec("listMembersInOrganizationById", 200, { items: [badMember] })).toThrow(
      /\/items\/0\/user: must have required property 'displayName'/,
    );
  });

  it("accepts an empty 204 for deletes (the spec declares 204/205) and rejects a body", () => {
    expect(() => expectMatchesSpec("removeMemberFromOrganizationById", 204, undefined)).not.toThrow();
    expect(() => expectMatchesSpec("removeMemberFromOrganizationById", 204, "")).not.toThrow();
    expect(() => expectMatchesSpec("removeMemberFromOrganizationById", 205, undefined)).not.toThrow();
    expect(() => expectMatchesSpec("joinOrganization", 204, undefined)).not.toThrow();
    expect(() => expectMatchesSpec("removeMemberFromOrganizationById", 204, { ok: true })).toThrow(
      /declares no response body/,
    );
  });

  it("rejects statuses the spec does not declare", () => {
    expect(() => expectMatchesSpec("removeMemberFromOrganizationById", 200, {})).toThrow(
      /status 200 is not declared by the spec \(declared: 204, 205\)/,
    );
    expect(() => expectMatchesSpec("getOrganizationById", 201, validOrganization())).toThrow(/not declared/);
  });

  it("validates declared error responses", () => {
    expect(() =>
      expectMatchesSpec("getOrganizationById", 404, { error: { code: 404, message: "Not found" } }),
    ).not.toThrow();
    expect(() => expectMatchesSpec("getOrganizationById", 404, { message: "Not found" })).toThrow(
      /must have required property 'error'/,
    );
  });

  it("throws for an unknown operationId", () => {
    expect(() => expectMatchesSpec("noSuchOperation", 200, {})).toThrow(/Unknown operationId "noSuchOperation"/);
    expect(() => specOperation("noSuchOperation")).toThrow(/Unknown operationId/);
    expect(() => responseSchemaFor("noSuchOperation", 200)).toThrow(/Unknown operationId/);
  });
});
