import type { Member } from "../db/generated/client.ts";
import { joinedColumns, keyedSql, keyedText } from "../db/sql.ts";
import { ForbiddenError, loadedOrNull, NotFoundError, UnauthenticatedError } from "../lib/errors.ts";
import { parentIdOf } from "../lib/parent-id.ts";
import type { RequestContext, Viewer } from "../request/context.ts";
import { byKeys, defineLoader } from "../request/loaders.ts";
import { hasRole } from "./roles.ts";

export function requireViewer(ctx: RequestContext): Viewer {
  if (!ctx.viewer) throw new UnauthenticatedError();
  return ctx.viewer;
}

/**
 * While an organization enforces SSO (`sso: true`), only members who came through its identity provider count as
 * members, and admins, who must keep a way in to repair the SSO configuration: the condition on a member row
 * `member` of the organization row `organization`, for hand-written SQL (db/sql.ts).
 */
export function ssoAdmitsSql(member: string, organization: string): string {
  return `(${member}.sso OR ${member}.role = 'admin' OR NOT ${organization}.sso)`;
}

const memberColumns: Record<keyof Member, true> = {
  organizationId: true,
  userId: true,
  role: true,
  disabled: true,
  sso: true,
  joinedAt: true,
  lastSeenAt: true,
};

/** The select list of a joined `"Member" <alias>` read as a nested `membership` (see db/sql.ts). */
export function membershipJoinColumns(alias: string): string {
  return joinedColumns<Member>(alias, "membership", memberColumns);
}

const viewerMembershipsSql = keyedSql(
  (orgIds) => `SELECT m.* FROM "Member" m JOIN "Organization" o ON o.id = m."organizationId"
      WHERE m."userId" = $1 AND m."organizationId" ${orgIds} AND ${ssoAdmitsSql("m", "o")}`,
  2,
);

/**
 * The viewer's membership per organization id (null: not a member, or refused by the organization's SSO rule).
 * Read on nearly every request, so hand-written SQL; the space loader primes it from its own statement.
 */
export const viewerMembershipLoader = defineLoader<string, Member | null>("viewerMembership", async (ctx, orgIds) => {
  const viewer = requireViewer(ctx);
  const { text, keys } = keyedText(viewerMembershipsSql, orgIds);
  const rows = await ctx.sql.rows<Member>(text, [viewer.userId, keys]);
  return byKeys(orgIds, rows, (row) => row.organizationId);
});

/**
 * The viewer's membership, or 404 when the viewer is not a member (other tenants' ids reveal nothing). A member the
 * organization's SSO rule refuses gets 403, saying how to get in.
 */
export async function requireMembership(ctx: RequestContext, organizationId: string): Promise<Member> {
  const viewer = requireViewer(ctx);
  const membership = await viewerMembershipLoader(ctx).load(organizationId);
  if (!membership) {
    const refusedBySso = await ctx.prisma.member.count({
      where: { organizationId, userId: viewer.userId, disabled: false, sso: false, organization: { sso: true } },
    });
    if (refusedBySso > 0) {
      throw new ForbiddenError(
        `Organization ${organizationId} requires single sign-on: sign in with its identity provider (GET /v1/orgs/${organizationId}/sso)`,
      );
    }
  }
  if (!membership || membership.disabled) throw new NotFoundError(`Organization ${organizationId} not found`);
  return membership;
}

/**
 * Whether a membership read from `viewerMembershipLoader` (a failed read throws) may read the organization's
 * structure (teams, collections, sites, members): an enabled member with a role, so not a guest, who sees only the
 * spaces granted.
 */
export function readsOrganization(value: Member | Error | null | undefined): value is Member {
  const membership = loadedOrNull(value);
  return Boolean(membership && !membership.disabled && hasRole(membership.role, "read"));
}

/**
 * The organization of an object a mutation names by its own id: `organizationId` when given (REST paths pass it),
 * else the object's own (`own`), for that organization's members; anyone else gets `notFound` (`parentIdOf`).
 */
export function objectOrganizationId(
  ctx: RequestContext,
  organizationId: string | null | undefined,
  own: () => Promise<string | null | undefined>,
  notFound: string,
): Promise<string> {
  return parentIdOf(organizationId, { own, visible: (id) => requireMembership(ctx, id), notFound });
}
