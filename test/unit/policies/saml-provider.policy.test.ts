import { describe, it } from "vitest";
import { canManageSso } from "../../../src/modules/saml-provider/saml-provider.policy.ts";
import { expectOrganizationRole } from "./organization-viewers.ts";

describe("saml-provider policy", () => {
  it("leaves SAML providers, reads included, to organization admins", () =>
    expectOrganizationRole(canManageSso, "admin"));
});
