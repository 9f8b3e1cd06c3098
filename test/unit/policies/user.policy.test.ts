import { describe, it } from "vitest";
import { canAddMembersByEmail } from "../../../src/modules/user/user.policy.ts";
import { expectOrganizationRole } from "./organization-viewers.ts";

describe("user policy", () => {
  it("leaves adding a person by email to organization admins", () =>
    expectOrganizationRole(canAddMembersByEmail, "admin"));
});
