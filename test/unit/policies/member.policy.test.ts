import { describe, expect, it } from "vitest";
import { canListMembers, canManageMembers, canRemoveMember } from "../../../src/modules/member/member.policy.ts";
import { expectOrganizationRole, organization, organizationViewers } from "./organization-viewers.ts";

describe("member policy", () => {
  it("lets members with a role list members", () => expectOrganizationRole(canListMembers, "read"));
  it("leaves changing members to organization admins", () => expectOrganizationRole(canManageMembers, "admin"));
  it("leaves removing someone else to organization admins", () =>
    expectOrganizationRole((viewer, org) => canRemoveMember(viewer, org, { leaving: false }), "admin"));

  it("lets any enabled member leave, guests included, and hides the organization from others", () => {
    for (const { name, viewer } of organizationViewers) {
      const decision = canRemoveMember(viewer, organization, { leaving: true });
      expect(decision.allowed, name).toBe(Boolean(viewer && !viewer.disabled));
    }
  });
});
