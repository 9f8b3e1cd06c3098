import { enforce } from "../../auth/policy.ts";
import type { Readable } from "../../auth/readable.ts";
import type { Member, Team, TeamMember, TeamMemberRole } from "../../db/generated/client.ts";
import type { SortKey } from "../../paging/pagination.ts";
import type { RequestContext } from "../../request/context.ts";
import { byKeys, defineLoader } from "../../request/loaders.ts";
import { canListTeams } from "./team.policy.ts";

export const teamMemberOrder: SortKey<TeamMember>[] = [
  { field: "createdAt", direction: "asc" },
  { field: "userId", direction: "asc" },
];

/** Every membership of each team, in list order: one statement for all teams of a nested read. */
export const teamMembersLoader = defineLoader<string, TeamMember[]>("teamMembers", async (ctx, teamIds) => {
  const rows = await ctx.prisma.teamMember.findMany({
    where: { teamId: { in: [...teamIds] } },
    orderBy: teamMemberOrder.map((key) => ({ [key.field]: key.direction })),
  });
  const byTeam = new Map<string, TeamMember[]>(teamIds.map((id) => [id, []]));
  for (const row of rows) byTeam.get(row.teamId)?.push(row);
  return teamIds.map((id) => byTeam.get(id) ?? []);
});

export const teamMemberCountLoader = defineLoader<string, number>("teamMemberCount", async (ctx, teamIds) => {
  const rows = await ctx.prisma.teamMember.groupBy({
    by: ["teamId"],
    where: { teamId: { in: [...teamIds] } },
    _count: { _all: true },
  });
  const counts = new Map(rows.map((row) => [row.teamId, row._count._all]));
  return teamIds.map((id) => counts.get(id) ?? 0);
});

/** The viewer's role in each team (null: not in the team). */
export const viewerTeamRoleLoader = defineLoader<string, TeamMemberRole | null>(
  "viewerTeamRole",
  async (ctx, teamIds) => {
    const rows = await ctx.prisma.teamMember.findMany({
      where: { teamId: { in: [...teamIds] }, userId: ctx.viewer?.userId ?? "" },
      select: { teamId: true, role: true },
    });
    const roles = new Map(rows.map((row) => [row.teamId, row.role]));
    return teamIds.map((id) => roles.get(id) ?? null);
  },
);

/** Teams by id, without access checks: others reach them through `organizationTeam`. */
export const teamByIdLoader = defineLoader<string, Team | null>("teamById", async (ctx, ids) => {
  const rows = await ctx.prisma.team.findMany({ where: { id: { in: [...ids] } } });
  return byKeys(ids, rows, (row) => row.id);
});

/**
 * A team of the organization of `viewer`, the viewer's membership as a policy check returned it: the team list rule
 * is applied to it again here, pure (no statement), and a team of another organization reads as null.
 */
export async function organizationTeam(
  ctx: RequestContext,
  viewer: Readable<Member>,
  teamId: string,
): Promise<Team | null> {
  enforce(canListTeams(viewer, { id: viewer.organizationId }));
  const team = await teamByIdLoader(ctx).load(teamId);
  return team?.organizationId === viewer.organizationId ? team : null;
}
