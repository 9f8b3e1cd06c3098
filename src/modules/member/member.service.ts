import { z } from "zod";
import { requireMembership, requireViewer } from "../../auth/access.ts";
import { authorizeInOrganization } from "../../auth/authorize.ts";
import type { Member, Prisma, Role } from "../../db/generated/client.ts";
import { ConflictError, InvalidInputError, NotFoundError, nullWhereRefused } from "../../lib/errors.ts";
import { parseInput, roleSchema } from "../../lib/validation.ts";
import {
  dateBoundSchema,
  type FilterRules,
  filterWhere,
  type ListArgs,
  type ListOrder,
  parseFilter,
  sortFor,
} from "../../paging/list-order.ts";
import { type PageArgs, paginate, type SortKey } from "../../paging/pagination.ts";
import { parsePairIds } from "../../platform/ids.ts";
import type { RequestContext } from "../../request/context.ts";
import { memberByKeyLoader } from "./member.loaders.ts";
import { canListMembers, canManageMembers, canRemoveMember } from "./member.policy.ts";

export interface MemberFilters {
  role?: Role | "guest" | null;
  search?: string | null;
}

/** An organization's members in their list's default order: the latest joined first. */
export const memberOrder: SortKey<Member>[] = [
  { field: "joinedAt", direction: "desc" },
  { field: "userId", direction: "desc" },
];

/** The sorts of `members(orderBy:)`. */
export const memberListOrder: ListOrder<Member> = {
  fields: { JOINED_AT: "joinedAt", LAST_SEEN_AT: "lastSeenAt" },
  tiebreak: "userId",
};

export const memberFilterSchema = z.strictObject({
  role: z
    .enum([...roleSchema.options, "guest"])
    .nullish()
    .describe("Only members with this role; guest: members without an organization role"),
  joinedAfter: dateBoundSchema.nullish().describe("Only members who joined after this time (ISO 8601)"),
  joinedBefore: dateBoundSchema.nullish().describe("Only members who joined before this time (ISO 8601)"),
});

const memberFilterRules: FilterRules<Member, Omit<z.infer<typeof memberFilterSchema>, "role">> = {
  joinedAfter: { after: "joinedAt" },
  joinedBefore: { before: "joinedAt" },
};

/**
 * An organization's members, the latest joined first unless `orderBy` says otherwise; sorting by last activity
 * lists only members who have been active (a keyset cannot place a missing time).
 */
export async function listMembers(
  ctx: RequestContext,
  organizationId: string,
  page: PageArgs,
  filters: MemberFilters,
  list: ListArgs = {},
) {
  await authorizeInOrganization(ctx, organizationId, canListMembers);
  const sort = sortFor(memberListOrder, list.orderBy, memberOrder);
  const filter = parseFilter(memberFilterSchema, list.filter);
  const role = filter.role ?? filters.role;
  const search = filters.search?.trim();
  const where: Prisma.MemberWhereInput = {
    organizationId,
    AND: filterWhere(memberFilterRules, filter),
    ...(role ? { role: role === "guest" ? null : role } : {}),
    ...(sort.some((key) => key.field === "lastSeenAt") ? { lastSeenAt: { not: null } } : {}),
    ...(search
      ? {
          user: {
            OR: [
              { displayName: { contains: search, mode: "insensitive" } },
              { email: { contains: search, mode: "insensitive" } },
            ],
          },
        }
      : {}),
  };
  return paginate<Member>(page, { sort, where, model: ctx.prisma.member });
}

export async function getMember(ctx: RequestContext, organizationId: string, userId: string): Promise<Member> {
  await authorizeInOrganization(ctx, organizationId, canListMembers);
  const member = await memberByKeyLoader(ctx).load({ organizationId, userId });
  if (!member) throw new NotFoundError(`User ${userId} is not a member of this organization`);
  return member;
}

/** Memberships for `node`/`nodes`, by their pair ids: visible where `getMember` answers them. */
export function loadVisibleMembers(ctx: RequestContext, ids: readonly string[]): Promise<(Member | null)[]> {
  return nullWhereRefused(ids, parsePairIds("Member", ids), (key) => getMember(ctx, key.parentId, key.childId));
}

export const updateMemberSchema = z.strictObject({
  role: roleSchema.nullable().describe("The member's organization role; null makes them a guest"),
});

/**
 * Serializes the changes that may lower or remove an admin of an organization (they lock its row first), so that
 * the "another admin remains" check below reads what the other such changes committed: two admins demoting each
 * other at once cannot both pass it.
 */
async function lockAdmins(tx: Prisma.TransactionClient, organizationId: string) {
  await tx.$queryRaw`SELECT 1 FROM "Organization" WHERE id = ${organizationId} FOR NO KEY UPDATE`;
}

async function assertAnotherAdminRemains(tx: Prisma.TransactionClient, organizationId: string, userId: string) {
  const admins = await tx.member.count({
    where: { organizationId, role: "admin", disabled: false, userId: { not: userId } },
  });
  if (admins === 0) throw new ConflictError("An organization must keep at least one admin");
}

/**
 * A membership as a mutation names it: by its own id (`mbr_<organizationId>:<userId>`, what `node` answers), or by
 * `organizationId` and `userId` together (REST paths pass those).
 */
export interface MembershipPlace {
  memberId?: string | null;
  organizationId?: string | null;
  userId?: string | null;
}

/**
 * The organization and user of the membership `place` names. Naming neither way is a BAD_USER_INPUT. A `memberId`
 * that is no membership id, or beside which a given id names another membership, is NOT_FOUND: the answer to any
 * id that names nothing, and to a parent id that is not the object's.
 */
function membershipKey(place: MembershipPlace): { organizationId: string; userId: string } {
  if (place.memberId) {
    const [pair] = parsePairIds("Member", [place.memberId]);
    const key = pair && { organizationId: pair.parentId, userId: pair.childId };
    const disagrees =
      (place.organizationId && place.organizationId !== key?.organizationId) ||
      (place.userId && place.userId !== key?.userId);
    if (!key || disagrees) throw new NotFoundError(`Member ${place.memberId} not found`);
    return key;
  }
  if (place.organizationId && place.userId) return { organizationId: place.organizationId, userId: place.userId };
  throw new InvalidInputError("Name the membership: memberId, or both organizationId and userId");
}

export async function updateMember(ctx: RequestContext, place: MembershipPlace, input: unknown) {
  const { organizationId, userId } = membershipKey(place);
  await authorizeInOrganization(ctx, organizationId, canManageMembers);
  const { role } = parseInput(updateMemberSchema, input);
  return ctx.prisma.$transaction(async (tx) => {
    await lockAdmins(tx, organizationId);
    const member = await tx.member.findUnique({ where: { organizationId_userId: { organizationId, userId } } });
    if (!member) throw new NotFoundError(`User ${userId} is not a member of this organization`);
    if (member.role === "admin" && role !== "admin") await assertAnotherAdminRemains(tx, organizationId, userId);
    return tx.member.update({ where: { organizationId_userId: { organizationId, userId } }, data: { role } });
  });
}

/**
 * Admins remove anyone; members may remove themselves (leave). Removing a non-member succeeds. Returns the
 * membership's organization and user.
 */
export async function removeMember(ctx: RequestContext, place: MembershipPlace) {
  const { organizationId, userId } = membershipKey(place);
  const leaving = requireViewer(ctx).userId === userId;
  await authorizeInOrganization(ctx, organizationId, (viewer, organization) =>
    canRemoveMember(viewer, organization, { leaving }),
  );
  await ctx.prisma.$transaction(async (tx) => {
    await lockAdmins(tx, organizationId);
    const member = await tx.member.findUnique({ where: { organizationId_userId: { organizationId, userId } } });
    if (!member) return;
    if (member.role === "admin") await assertAnotherAdminRemains(tx, organizationId, userId);
    await tx.teamMember.deleteMany({ where: { organizationId, userId } });
    await tx.member.delete({ where: { organizationId_userId: { organizationId, userId } } });
  });
  return { organizationId, userId };
}

/** Records that the caller was active in the organization now. */
export async function pingOrganization(ctx: RequestContext, organizationId: string): Promise<void> {
  const membership = await requireMembership(ctx, organizationId);
  await ctx.prisma.member.update({
    where: { organizationId_userId: { organizationId, userId: membership.userId } },
    data: { lastSeenAt: ctx.clock.now() },
  });
}

export async function setMemberSso(ctx: RequestContext, place: MembershipPlace): Promise<Member> {
  const { organizationId, userId } = membershipKey(place);
  await authorizeInOrganization(ctx, organizationId, canManageMembers);
  const member = await ctx.prisma.member.findUnique({ where: { organizationId_userId: { organizationId, userId } } });
  if (!member) throw new NotFoundError(`User ${userId} is not a member of this organization`);
  return ctx.prisma.member.update({
    where: { organizationId_userId: { organizationId, userId } },
    data: { sso: true },
  });
}
