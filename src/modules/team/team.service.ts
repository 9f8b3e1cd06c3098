import { z } from "zod";
import {
  objectOrganizationId,
  readsOrganization,
  requireMembership,
  viewerMembershipLoader,
} from "../../auth/access.ts";
import { authorizeInOrganization } from "../../auth/authorize.ts";
import { hasRole } from "../../auth/roles.ts";
import type { PrismaExecutor } from "../../db/database.ts";
import type { Prisma, Team, TeamMember, TeamMemberRole } from "../../db/generated/client.ts";
import { ForbiddenError, InvalidInputError, NotFoundError } from "../../lib/errors.ts";
import { parseInput } from "../../lib/validation.ts";
import {
  containsSchema,
  createdRangeRules,
  type FilterRules,
  filterWhere,
  type ListArgs,
  type ListOrder,
  parseFilter,
  sortFor,
  timeRangeSchemas,
} from "../../paging/list-order.ts";
import { pageFromRows } from "../../paging/memory-pagination.ts";
import { isFirstPage, type PageArgs, paginate, type SortKey } from "../../paging/pagination.ts";
import { newId, pairIdOf, parsePairIds } from "../../platform/ids.ts";
import type { RequestContext } from "../../request/context.ts";
import { teamByIdLoader, teamMemberOrder, teamMembersLoader, viewerTeamRoleLoader } from "./team.loaders.ts";
import { canCreateOrDeleteTeams, canListTeams } from "./team.policy.ts";

const teamTitleSchema = z.string().trim().min(1).max(64);
const teamMemberRoleSchema = z.enum(["owner", "member"]);

export interface TeamFilters {
  /** A member id: only teams that member can manage. */
  owner?: string | null;
  title?: string | null;
}

/** The sorts of `teams(orderBy:)`. */
/** An organization's teams, oldest first. */
export const teamOrder: SortKey<Team>[] = [
  { field: "createdAt", direction: "asc" },
  { field: "id", direction: "asc" },
];

export const teamListOrder: ListOrder<Team> = { fields: { CREATED_AT: "createdAt", TITLE: "title" }, tiebreak: "id" };

const { createdAfter, createdBefore } = timeRangeSchemas("teams");
export const teamFilterSchema = z.strictObject({
  titleContains: containsSchema.nullish().describe("Only teams whose title contains this text, ignoring case"),
  createdAfter,
  createdBefore,
});

const teamFilterRules: FilterRules<Team, z.infer<typeof teamFilterSchema>> = {
  titleContains: { contains: "title" },
  ...createdRangeRules,
};

export async function listTeams(
  ctx: RequestContext,
  organizationId: string,
  page: PageArgs,
  filters: TeamFilters,
  list: ListArgs = {},
) {
  await authorizeInOrganization(ctx, organizationId, canListTeams);
  const sort = sortFor(teamListOrder, list.orderBy, teamOrder);
  const filter = parseFilter(teamFilterSchema, list.filter);
  const where: Prisma.TeamWhereInput = { organizationId, AND: filterWhere(teamFilterRules, filter) };
  if (filters.title) where.title = { contains: filters.title, mode: "insensitive" };
  if (filters.owner) {
    const owner = await ctx.prisma.member.findUnique({
      where: { organizationId_userId: { organizationId, userId: filters.owner } },
    });
    // Admins manage every team; other members only the teams they own; non-members none.
    if (!owner) where.id = { in: [] };
    else if (owner.role !== "admin") where.members = { some: { userId: filters.owner, role: "owner" } };
  }
  return paginate<Team>(page, { sort, where, model: ctx.prisma.team });
}

async function findTeam(ctx: RequestContext, organizationId: string, teamId: string): Promise<Team> {
  const team = await ctx.prisma.team.findFirst({ where: { id: teamId, organizationId } });
  if (!team) throw new NotFoundError(`Team ${teamId} not found`);
  return team;
}

export async function getTeam(ctx: RequestContext, organizationId: string, teamId: string): Promise<Team> {
  await authorizeInOrganization(ctx, organizationId, canListTeams);
  return findTeam(ctx, organizationId, teamId);
}

/** Teams for `node`/`nodes`: null where the viewer is not a member of the team's organization. */
export async function loadVisibleTeams(ctx: RequestContext, ids: readonly string[]): Promise<(Team | null)[]> {
  const teams = await ctx.prisma.team.findMany({ where: { id: { in: [...ids] } } });
  const memberships = await viewerMembershipLoader(ctx).loadMany(teams.map((team) => team.organizationId));
  const visible = new Map(
    teams.filter((_, index) => readsOrganization(memberships[index])).map((team) => [team.id, team]),
  );
  return ids.map((id) => visible.get(id) ?? null);
}

/**
 * The organization a team mutation acts in: the one given (REST paths carry it, and a wrong one is the team's
 * not-found), or else the team's own, for its organization's members.
 */
function teamOrganizationId(ctx: RequestContext, organizationId: string | null | undefined, teamId: string) {
  const own = async () => (await teamByIdLoader(ctx).load(teamId))?.organizationId;
  return objectOrganizationId(ctx, organizationId, own, `Team ${teamId} not found`);
}

/** Organization admins and the team's owners manage a team. */
async function requireTeamAdmin(ctx: RequestContext, organizationId: string, teamId: string): Promise<Team> {
  const membership = await requireMembership(ctx, organizationId);
  const team = await findTeam(ctx, organizationId, teamId);
  if (membership.role === "admin") return team;
  if ((await viewerTeamRoleLoader(ctx).load(teamId)) === "owner") return team;
  throw new ForbiddenError("Only organization admins and team owners can manage this team");
}

export async function teamPermissions(ctx: RequestContext, team: Team) {
  const [membership, teamRole] = await Promise.all([
    viewerMembershipLoader(ctx).load(team.organizationId),
    viewerTeamRoleLoader(ctx).load(team.id),
  ]);
  const member = Boolean(membership && !membership.disabled);
  return { view: member, admin: member && (hasRole(membership?.role, "admin") || teamRole === "owner") };
}

/** Resolves user ids or emails (any case) to members of the organization; anyone else is a 400. */
async function resolveMembers(tx: Prisma.TransactionClient, organizationId: string, references: string[]) {
  if (references.length === 0) return new Map<string, string>();
  const members = await tx.member.findMany({
    where: {
      organizationId,
      OR: [{ userId: { in: references } }, { user: { email: { in: references.map((r) => r.toLowerCase()) } } }],
    },
    include: { user: { select: { email: true } } },
  });
  const userIdByKey = new Map<string, string>();
  for (const member of members) {
    userIdByKey.set(member.userId, member.userId);
    userIdByKey.set(member.user.email, member.userId);
  }
  const resolved = new Map<string, string>();
  const unknown: string[] = [];
  for (const reference of references) {
    const userId = userIdByKey.get(reference) ?? userIdByKey.get(reference.toLowerCase());
    if (userId) resolved.set(reference, userId);
    else unknown.push(reference);
  }
  if (unknown.length > 0) throw new InvalidInputError(`Not members of this organization: ${unknown.join(", ")}`);
  return resolved;
}

/** Inserts a team with its members (user ids already known to be members); shared with the demo bootstrap. */
export function insertTeam(
  prisma: PrismaExecutor,
  organizationId: string,
  team: { title: string; members: { userId: string; role: TeamMemberRole }[] },
  now: Date,
): Promise<Team> {
  return prisma.team.create({
    data: {
      id: newId("Team"),
      organizationId,
      title: team.title,
      createdAt: now,
      members: { create: team.members.map((member) => ({ ...member, organizationId, createdAt: now })) },
    },
  });
}

export const createTeamSchema = z.strictObject({
  title: teamTitleSchema.describe("The team's title, trimmed"),
  members: z
    .array(z.string().min(1))
    .max(1000)
    .optional()
    .describe("Members to put in it (role member), each a user id or an email (any case) of an organization member"),
});

export async function createTeam(ctx: RequestContext, organizationId: string, input: unknown): Promise<Team> {
  await authorizeInOrganization(ctx, organizationId, canCreateOrDeleteTeams);
  const data = parseInput(createTeamSchema, input);
  return ctx.prisma.$transaction(async (tx) => {
    const members = await resolveMembers(tx, organizationId, data.members ?? []);
    const userIds = [...new Set(members.values())];
    return insertTeam(
      tx,
      organizationId,
      { title: data.title, members: userIds.map((userId) => ({ userId, role: "member" })) },
      ctx.clock.now(),
    );
  });
}

export const updateTeamSchema = z.strictObject({
  title: teamTitleSchema.optional().describe("The team's title, trimmed"),
});

export async function updateTeam(
  ctx: RequestContext,
  organizationId: string | null | undefined,
  teamId: string,
  input: unknown,
) {
  await requireTeamAdmin(ctx, await teamOrganizationId(ctx, organizationId, teamId), teamId);
  const data = parseInput(updateTeamSchema, input);
  return ctx.prisma.team.update({ where: { id: teamId }, data });
}

export async function deleteTeam(
  ctx: RequestContext,
  givenOrganizationId: string | null | undefined,
  teamId: string,
): Promise<void> {
  const organizationId = await teamOrganizationId(ctx, givenOrganizationId, teamId);
  await authorizeInOrganization(ctx, organizationId, canCreateOrDeleteTeams);
  await ctx.prisma.team.deleteMany({ where: { id: teamId, organizationId } });
}

/** A team membership's global id (`tmbr_<teamId>:<userId>`): the node `node(id:)` answers, and removals name. */
export const teamMemberIdOf = (teamId: string, userId: string) => pairIdOf("OrganizationTeamMember", teamId, userId);

/**
 * A team membership's global id as one of a member's teams (`mtm_<userId>:<teamId>`): a node of its own type, so that
 * it does not share `tmbr_`'s id with the team's side of the same row, which a normalized cache would make one entry.
 */
export const memberTeamIdOf = (userId: string, teamId: string) => pairIdOf("MemberTeam", userId, teamId);

/** A member's teams for `node`/`nodes`, by their pair ids: null where the viewer cannot read their organization. */
export async function loadVisibleMemberTeams(ctx: RequestContext, ids: readonly string[]) {
  const pairs = parsePairIds("MemberTeam", ids);
  const asTeamMembers = pairs.map((pair) => teamMemberIdOf(pair.childId, pair.parentId));
  const rows = await loadVisibleTeamMembers(ctx, asTeamMembers);
  const visible = new Map(pairs.map((pair, index) => [pair.id, rows[index] ?? null]));
  return ids.map((id) => visible.get(id) ?? null);
}

/** Team memberships for `node`/`nodes`, by their pair ids: null where the viewer cannot read their organization. */
export async function loadVisibleTeamMembers(
  ctx: RequestContext,
  ids: readonly string[],
): Promise<(TeamMember | null)[]> {
  const pairs = parsePairIds("OrganizationTeamMember", ids);
  if (pairs.length === 0) return ids.map(() => null);
  const rows = await ctx.prisma.teamMember.findMany({
    where: { OR: pairs.map((pair) => ({ teamId: pair.parentId, userId: pair.childId })) },
  });
  const memberships = await viewerMembershipLoader(ctx).loadMany(rows.map((row) => row.organizationId));
  const visible = new Map(
    rows
      .filter((_, index) => readsOrganization(memberships[index]))
      .map((row) => [teamMemberIdOf(row.teamId, row.userId), row]),
  );
  return ids.map((id) => visible.get(id) ?? null);
}

/** Only members of the organization reach a team's members, and they may see every one of them. */
export function teamMemberPermissions() {
  return { view: true };
}

/** One page of a team's members; first pages of many teams share one statement through the loader. */
export async function teamMembersPage(ctx: RequestContext, teamId: string, page: PageArgs) {
  if (isFirstPage(page)) return pageFromRows(page, teamMemberOrder, await teamMembersLoader(ctx).load(teamId));
  return paginate<TeamMember>(page, {
    sort: teamMemberOrder,
    where: { teamId },
    model: ctx.prisma.teamMember,
  });
}

export const updateTeamMembersSchema = z.strictObject({
  add: z
    .array(z.string().min(1))
    .max(1000)
    .optional()
    .describe("Members to add (role member), each a user id or an email of an organization member"),
  remove: z
    .array(z.string().min(1))
    .max(1000)
    .optional()
    .describe("Members to remove, each a user id or an email; wins over add"),
  memberships: z
    .record(z.string(), z.strictObject({ role: teamMemberRoleSchema }))
    .optional()
    .describe(
      'Roles to set: a map of user id or email to `{ "role": "owner" | "member" }`; adds those not in the team yet',
    ),
});

/**
 * Adds, removes and re-roles team members in one transaction; someone both added and removed is removed. Returns
 * the team, and the user ids of those asked to be removed (whether they were in it or not, as `removeTeamMember`).
 */
export async function updateTeamMembers(
  ctx: RequestContext,
  givenOrganizationId: string | null | undefined,
  teamId: string,
  input: unknown,
): Promise<{ team: Team; removedUserIds: string[] }> {
  const organizationId = await teamOrganizationId(ctx, givenOrganizationId, teamId);
  const team = await requireTeamAdmin(ctx, organizationId, teamId);
  const data = parseInput(updateTeamMembersSchema, input);
  const memberships = data.memberships ?? {};
  const removedUserIds = await ctx.prisma.$transaction(async (tx) => {
    const resolved = await resolveMembers(tx, organizationId, [
      ...new Set([...(data.add ?? []), ...(data.remove ?? []), ...Object.keys(memberships)]),
    ]);
    const removed = new Set((data.remove ?? []).map((reference) => resolved.get(reference) as string));
    const roles = new Map(
      Object.entries(memberships).map(([reference, value]) => [resolved.get(reference) as string, value.role]),
    );
    const added = new Set([...(data.add ?? []).map((reference) => resolved.get(reference) as string), ...roles.keys()]);
    const now = ctx.clock.now();
    for (const userId of added) {
      if (removed.has(userId)) continue;
      const role = roles.get(userId);
      await tx.teamMember.upsert({
        where: { teamId_userId: { teamId, userId } },
        create: { teamId, userId, organizationId, role: role ?? "member", createdAt: now },
        update: role ? { role } : {},
      });
    }
    if (removed.size > 0) await tx.teamMember.deleteMany({ where: { teamId, userId: { in: [...removed] } } });
    return [...removed];
  });
  return { team, removedUserIds };
}

export const putTeamMemberSchema = z.strictObject({
  role: teamMemberRoleSchema
    .optional()
    .describe("Their role in the team; omitted: member for a new one, else unchanged"),
});

export async function putTeamMember(
  ctx: RequestContext,
  givenOrganizationId: string | null | undefined,
  teamId: string,
  userId: string,
  input: unknown,
) {
  const organizationId = await teamOrganizationId(ctx, givenOrganizationId, teamId);
  await requireTeamAdmin(ctx, organizationId, teamId);
  const { role } = parseInput(putTeamMemberSchema, input);
  return ctx.prisma.$transaction(async (tx) => {
    await resolveMembers(tx, organizationId, [userId]);
    return tx.teamMember.upsert({
      where: { teamId_userId: { teamId, userId } },
      create: { teamId, userId, organizationId, role: role ?? "member", createdAt: ctx.clock.now() },
      update: role ? { role } : {},
    });
  });
}

/** Returns the team, as it is after the removal. */
export async function removeTeamMember(
  ctx: RequestContext,
  organizationId: string | null | undefined,
  teamId: string,
  userId: string,
): Promise<Team> {
  const team = await requireTeamAdmin(ctx, await teamOrganizationId(ctx, organizationId, teamId), teamId);
  await ctx.prisma.teamMember.deleteMany({ where: { teamId, userId } });
  return team;
}

/** The teams a member belongs to, with their role in each. */
export async function listMemberTeams(
  ctx: RequestContext,
  organizationId: string,
  userId: string,
  page: PageArgs,
  filters: { title?: string | null },
) {
  await authorizeInOrganization(ctx, organizationId, canListTeams);
  const where: Prisma.TeamMemberWhereInput = { organizationId, userId };
  if (filters.title) where.team = { title: { contains: filters.title, mode: "insensitive" } };
  return paginate<TeamMember>(page, {
    sort: [
      { field: "createdAt", direction: "asc" },
      { field: "teamId", direction: "asc" },
    ],
    where,
    model: ctx.prisma.teamMember,
  });
}
