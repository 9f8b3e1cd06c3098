import { expect } from "vitest";
import type { OrganizationPolicy, OrganizationViewer } from "../../../src/auth/policy.ts";
import { hasRole, roleOrder } from "../../../src/auth/roles.ts";
import type { Role } from "../../../src/db/generated/client.ts";

/* The callers of access.md as an organization's policies see them, and the table an organization-role rule gives. */

export const organization = { id: "org_1" };

/** Every kind of caller: each role, a guest (member without a role), a disabled admin, a non-member. */
export const organizationViewers: { name: string; viewer: OrganizationViewer }[] = [
  ...[...roleOrder].reverse().map((role) => ({ name: role, viewer: { role, disabled: false } })),
  { name: "guest", viewer: { role: null, disabled: false } },
  { name: "disabled admin", viewer: { role: "admin", disabled: true } },
  { name: "non-member", viewer: null },
];

/**
 * Checks `policy` against every caller as the rule "organization role at least `least`": hidden (404) from
 * non-members and disabled members, refused (403) below `least`, allowed from `least` up.
 */
export function expectOrganizationRole(policy: OrganizationPolicy, least: Role): void {
  for (const { name, viewer } of organizationViewers) {
    const decision = policy(viewer, organization);
    const expected =
      !viewer || viewer.disabled
        ? { allowed: false, error: "not-found", message: "Organization org_1 not found" }
        : hasRole(viewer.role, least)
          ? { allowed: true }
          : {
              allowed: false,
              error: "forbidden",
              message: `This operation needs the ${least} role in the organization`,
            };
    expect(decision, name).toEqual(expected);
  }
}
