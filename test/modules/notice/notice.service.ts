import { requireOrganizationRole } from "../../../src/auth/access.ts";
import type { RequestContext } from "../../../src/request/context.ts";

/** A resource made for the test of the module manifest: an organization's welcome notice, kept in memory. */
export interface Notice {
  organizationId: string;
  text: string;
}

/** The organization's notice, for its members only (others are told it does not exist). */
export async function readNotice(ctx: RequestContext, organizationId: string): Promise<Notice> {
  await requireOrganizationRole(ctx, organizationId, "read");
  return { organizationId, text: `Welcome to ${organizationId}` };
}
