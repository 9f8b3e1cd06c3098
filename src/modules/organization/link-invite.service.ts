import { z } from "zod";
import { objectOrganizationId, requireViewer, viewerMembershipLoader } from "../../auth/access.ts";
import { authorizeInOrganization } from "../../auth/authorize.ts";
import { hasRole, highestRole } from "../../auth/roles.ts";
import type { LinkInvite } from "../../db/generated/client.ts";
import { ForbiddenError, NotFoundError, nullWhereRefused } from "../../lib/errors.ts";
import { parseInput, roleSchema } from "../../lib/validation.ts";
import { type PageArgs, paginate, type SortKey } from "../../paging/pagination.ts";
import { newId } from "../../platform/ids.ts";
import type { RequestContext } from "../../request/context.ts";
import { canManageInvites } from "./organization.policy.ts";

// The invite id is the secret of the link: 20 random base62 characters, like every id.
export const linkInviteSchema = z.strictObject({
  role: roleSchema.nullable().describe("The organization role the link gives; null: joiners become guests"),
});

/** An organization's invite links, oldest first. */
export const linkInviteOrder: SortKey<LinkInvite>[] = [
  { field: "createdAt", direction: "asc" },
  { field: "id", direction: "asc" },
];

export async function listLinkInvites(ctx: RequestContext, organizationId: string, page: PageArgs) {
  await authorizeInOrganization(ctx, organizationId, canManageInvites);
  return paginate<LinkInvite>(page, {
    model: ctx.prisma.linkInvite,
    sort: linkInviteOrder,
    where: { organizationId },
  });
}

export async function getLinkInvite(
  ctx: RequestContext,
  organizationId: string,
  inviteId: string,
): Promise<LinkInvite> {
  await authorizeInOrganization(ctx, organizationId, canManageInvites);
  const invite = await ctx.prisma.linkInvite.findFirst({ where: { id: inviteId, organizationId } });
  if (!invite) throw new NotFoundError(`Invite ${inviteId} not found`);
  return invite;
}

export async function createLinkInvite(
  ctx: RequestContext,
  organizationId: string,
  input: unknown,
): Promise<LinkInvite> {
  const membership = await authorizeInOrganization(ctx, organizationId, canManageInvites);
  const { role } = parseInput(linkInviteSchema, input);
  return ctx.prisma.linkInvite.create({
    data: { id: newId("LinkInvite"), organizationId, role, createdById: membership.userId, createdAt: ctx.clock.now() },
  });
}

/** The organization an invite mutation acts in: the one given, or else the invite's own. */
function inviteOrganizationId(ctx: RequestContext, organizationId: string | null | undefined, inviteId: string) {
  const own = async () =>
    (await ctx.prisma.linkInvite.findUnique({ where: { id: inviteId }, select: { organizationId: true } }))
      ?.organizationId;
  return objectOrganizationId(ctx, organizationId, own, `Invite ${inviteId} not found`);
}

export async function updateLinkInvite(
  ctx: RequestContext,
  givenOrganizationId: string | null | undefined,
  inviteId: string,
  input: unknown,
) {
  await getLinkInvite(ctx, await inviteOrganizationId(ctx, givenOrganizationId, inviteId), inviteId);
  const { role } = parseInput(linkInviteSchema, input);
  return ctx.prisma.linkInvite.update({ where: { id: inviteId }, data: { role } });
}

export async function deleteLinkInvite(
  ctx: RequestContext,
  givenOrganizationId: string | null | undefined,
  inviteId: string,
): Promise<void> {
  const organizationId = await inviteOrganizationId(ctx, givenOrganizationId, inviteId);
  await authorizeInOrganization(ctx, organizationId, canManageInvites);
  await ctx.prisma.linkInvite.deleteMany({ where: { id: inviteId, organizationId } });
}

/** An invite is redundant for a viewer who already has at least its role in the organization. */
export async function isInviteRedundant(ctx: RequestContext, invite: LinkInvite): Promise<boolean> {
  const membership = await viewerMembershipLoader(ctx).load(invite.organizationId);
  return Boolean(membership && (invite.role === null || hasRole(membership.role, invite.role)));
}

/**
 * Joins through an invite link: new members get its role, existing members keep the higher of the two. The invite
 * names its organization (anyone with the link may join, so there is nothing to hide); a given `organizationId`
 * must be it. Returns the organization's id.
 */
export async function joinWithLinkInvite(
  ctx: RequestContext,
  givenOrganizationId: string | null | undefined,
  inviteId: string,
): Promise<string> {
  const viewer = requireViewer(ctx);
  const invite = await ctx.prisma.linkInvite.findFirst({
    where: { id: inviteId, organizationId: givenOrganizationId ?? undefined },
    include: { organization: { select: { inviteLinks: true } } },
  });
  if (!invite) throw new NotFoundError(`Invite ${inviteId} not found`);
  if (!invite.organization.inviteLinks) throw new ForbiddenError("Invite links are disabled in this organization");
  const { organizationId } = invite;
  await ctx.prisma.$transaction(async (tx) => {
    const key = { organizationId_userId: { organizationId, userId: viewer.userId } };
    const existing = await tx.member.findUnique({ where: key });
    if (!existing) {
      await tx.member.create({
        data: { organizationId, userId: viewer.userId, role: invite.role, joinedAt: ctx.clock.now() },
      });
    } else if (highestRole(existing.role, invite.role) !== existing.role) {
      await tx.member.update({ where: key, data: { role: invite.role } });
    }
  });
  return organizationId;
}

/** Invites for `node`/`nodes`: where `GET /orgs/{organizationId}/link-invites/{inviteId}` answers (admins). */
export async function loadVisibleLinkInvites(ctx: RequestContext, ids: readonly string[]) {
  const rows = await ctx.prisma.linkInvite.findMany({ where: { id: { in: [...ids] } } });
  return nullWhereRefused(ids, rows, (row) => getLinkInvite(ctx, row.organizationId, row.id));
}
