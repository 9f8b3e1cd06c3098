import { describe, it } from "vitest";
import { canManageTranslations, canReadTranslations } from "../../../src/modules/translation/translation.policy.ts";
import { expectOrganizationRole } from "./organization-viewers.ts";

describe("translation policy", () => {
  it("lets members with a role read translations", () => expectOrganizationRole(canReadTranslations, "read"));
  it("needs the create role to manage them", () => expectOrganizationRole(canManageTranslations, "create"));
});
