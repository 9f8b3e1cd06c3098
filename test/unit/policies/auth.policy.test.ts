import { describe, expect, it } from "vitest";
import { allow, enforce, forbid, hide, organizationMember, organizationRoleAtLeast } from "../../../src/auth/policy.ts";
import { ForbiddenError, NotFoundError } from "../../../src/lib/errors.ts";
import { organization } from "./organization-viewers.ts";

/* The decisions every policy is made of, and the one helper that turns a refusal into the error answered. */

describe("enforce", () => {
  it("passes an allowed decision", () => {
    expect(() => enforce(allow)).not.toThrow();
  });

  it("throws 403 for a refusal the caller may see, and 404 for one they may not", () => {
    expect(() => enforce(forbid("too low"))).toThrow(new ForbiddenError("too low"));
    expect(() => enforce(hide("Space s not found"))).toThrow(NotFoundError);
    expect(() => enforce(hide("Space s not found"))).toThrow("Space s not found");
  });
});

describe("organizationMember", () => {
  it("admits every enabled member, guests included, and hides the organization from anyone else", () => {
    expect(organizationMember({ role: null, disabled: false }, organization)).toEqual(allow);
    expect(organizationMember({ role: "read", disabled: false }, organization)).toEqual(allow);
    expect(organizationMember({ role: "admin", disabled: true }, organization)).toEqual(
      hide("Organization org_1 not found"),
    );
    expect(organizationMember(null, organization)).toEqual(hide("Organization org_1 not found"));
  });
});

describe("organizationRoleAtLeast", () => {
  it("refuses a member one role below, and admits the role itself", () => {
    expect(organizationRoleAtLeast({ role: "review", disabled: false }, organization, "create")).toEqual(
      forbid("This operation needs the create role in the organization"),
    );
    expect(organizationRoleAtLeast({ role: "create", disabled: false }, organization, "create")).toEqual(allow);
  });
});
