import { authorizeInOrganization } from "../../../src/auth/authorize.ts";
import type { RequestContext } from "../../../src/request/context.ts";
import { canReadNotice } from "./notice.policy.ts";

/** A resource made for the test of the module manifest: an organization's welcome notice, kept in memory. */
export interface Notice {
  organizationId: string;
  text: string;
}

/** The organization's notice, for its members only (others are told it does not exist). */
export async function readNotice(ctx: RequestContext, organizationId: string): Promise<Notice> {
  await authorizeInOrganization(ctx, organizationId, canReadNotice);
  return { organizationId, text: `Welcome to ${organizationId}` };
}
