import { describe, expect, it } from "vitest";
import {
  canEditSpecs,
  canReadSpecs,
  sourcesOpenToAnyone,
} from "../../../src/modules/openapi-spec/openapi-spec.policy.ts";
import { expectOrganizationRole } from "./organization-viewers.ts";

describe("openapi-spec policy", () => {
  it("lets members with a role read specs", () => expectOrganizationRole(canReadSpecs, "read"));
  it("needs the create role to edit them", () => expectOrganizationRole(canEditSpecs, "create"));

  it("opens the version sources of public specs only to callers without a token", () => {
    expect(sourcesOpenToAnyone({ visibility: "public" })).toBe(true);
    expect(sourcesOpenToAnyone({ visibility: "private" })).toBe(false);
  });
});
