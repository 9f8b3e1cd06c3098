import { describe, it } from "vitest";
import {
  canManageInvites,
  canReadAgentInstructions,
  canUpdateOrganization,
} from "../../../src/modules/organization/organization.policy.ts";
import { expectOrganizationRole } from "./organization-viewers.ts";

describe("organization policy", () => {
  it("leaves the organization's settings to its admins", () => expectOrganizationRole(canUpdateOrganization, "admin"));
  it("lets members with a role read agent instructions", () =>
    expectOrganizationRole(canReadAgentInstructions, "read"));
  it("leaves invite links, reads included, to admins", () => expectOrganizationRole(canManageInvites, "admin"));
});
