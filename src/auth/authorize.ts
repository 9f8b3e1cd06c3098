import type { Member } from "../db/generated/client.ts";
import type { RequestContext } from "../request/context.ts";
import { requireMembership } from "./access.ts";
import type { OrganizationPolicy } from "./policy.ts";
import { checkedRead, type Readable } from "./readable.ts";

/**
 * Applies an organization policy to the viewer's membership, read through the request's loader (no statement when
 * already read), after the SSO refusal of `requireMembership` (403 saying how to get in). The membership comes back
 * `Readable`: the proof the viewer passed a policy of that organization.
 */
export async function authorizeInOrganization(
  ctx: RequestContext,
  organizationId: string,
  policy: OrganizationPolicy,
): Promise<Readable<Member>> {
  const membership = await requireMembership(ctx, organizationId);
  return checkedRead(membership, policy(membership, { id: organizationId }));
}
