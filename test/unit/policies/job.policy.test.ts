import { describe, it } from "vitest";
import { canWatchJobs } from "../../../src/modules/job/job.policy.ts";
import { expectOrganizationRole } from "./organization-viewers.ts";

describe("job policy", () => {
  it("lets members with a role watch the organization's jobs, not guests", () =>
    expectOrganizationRole(canWatchJobs, "read"));
});
