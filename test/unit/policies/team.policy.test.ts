import { describe, it } from "vitest";
import { canCreateOrDeleteTeams, canListTeams } from "../../../src/modules/team/team.policy.ts";
import { expectOrganizationRole } from "./organization-viewers.ts";

describe("team policy", () => {
  it("lets members with a role list and read teams", () => expectOrganizationRole(canListTeams, "read"));
  it("leaves creating and deleting teams to organization admins", () =>
    expectOrganizationRole(canCreateOrDeleteTeams, "admin"));
});
