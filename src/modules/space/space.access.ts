import { requireMembership, requireViewer, viewerMembershipLoader } from "../../auth/access.ts";
import { enforce } from "../../auth/policy.ts";
import { type Readable, readableIf } from "../../auth/readable.ts";
import { type Member, Prisma, type Role, type Space } from "../../db/generated/client.ts";
import { loadedOrNull, NotFoundError } from "../../lib/errors.ts";
import type { RequestContext } from "../../request/context.ts";
import { defineLoader } from "../../request/loaders.ts";
import {
  canEditSpaceContent,
  grantsMatter,
  openingCollection,
  roleFromGrants,
  type SpacePermissions,
  spacePermissionsFor,
  spaceRoleAtLeast,
} from "./space.policy.ts";
import { type SpaceSummary, spaceReads } from "./space-reads.ts";

/*
 * The reads behind a space's policy (space.policy.ts): the facts its decisions take, read through the request's
 * loaders, the checks services call, and the same visibility rule as a Prisma filter for lists.
 */

/** The viewer's effective role on a space, deleted or not (access.md); restore needs it on deleted spaces. */
export async function effectiveRole(ctx: RequestContext, space: SpaceSummary): Promise<Role | null> {
  // Visitors of published content (no API token) reach spaces through a site: they hold no role on them.
  if (!ctx.viewer) return null;
  return roleWithMembership(ctx, space, await viewerMembershipLoader(ctx).load(space.organizationId));
}

/**
 * The role given the viewer's membership of the space's organization, already read: at once, unless the viewer's
 * grants and the parent collection matter (then read through their loaders).
 */
function roleWithMembership(
  ctx: RequestContext,
  space: SpaceSummary,
  membership: Member | null,
): Role | null | Promise<Role | null> {
  if (!grantsMatter(membership))
    return roleFromGrants({ membership, space, collectionDefaultLevel: null, grant: null });
  const collectionId = openingCollection(space);
  return Promise.all([
    spaceReads(ctx).viewerGrant.load(space.id),
    collectionId ? spaceReads(ctx).collection.load(collectionId) : null,
  ]).then(([grant, collection]) =>
    roleFromGrants({ membership, space, collectionDefaultLevel: collection?.defaultLevel ?? null, grant }),
  );
}

/**
 * The viewer's role on each of a list's live spaces (null entries stay null): their organizations' memberships read
 * once, and a space's grants and collection only where they matter. A nested read's hundreds of spaces of one
 * organization, read by its admin, then cost no promise each.
 */
async function liveSpaceRoles(ctx: RequestContext, spaces: readonly (SpaceSummary | null)[]): Promise<(Role | null)[]> {
  const loader = viewerMembershipLoader(ctx);
  const organizationIds = [...new Set(spaces.flatMap((space) => (space ? [space.organizationId] : [])))];
  const memberships = await Promise.all(organizationIds.map((id) => loader.load(id)));
  const membershipOf = new Map(organizationIds.map((id, index) => [id, memberships[index] ?? null]));
  const roles = spaces.map((space) =>
    space ? roleWithMembership(ctx, space, membershipOf.get(space.organizationId) ?? null) : null,
  );
  return roles.some((role) => role instanceof Promise) ? Promise.all(roles) : (roles as (Role | null)[]);
}

/** The viewer's effective role on a live space; null when the viewer may not see it (or it is deleted). */
export async function spaceRole(ctx: RequestContext, space: SpaceSummary): Promise<Role | null> {
  return space.deletedAt ? null : effectiveRole(ctx, space);
}

/**
 * The viewer's role on each space row whose visibility `loadVisibleSpaces` decided: `spacePermissions` answers from
 * it without a promise (a list of 1000 site spaces asked each of their spaces' permissions). The loaders the role
 * reads are per request and never cleared, so computing it again would give the same role.
 */

/**
 * Spaces for `node`/`nodes` and nested reads: null for deleted spaces and for spaces the viewer may not see.
 */
export async function loadVisibleSpaces(
  ctx: RequestContext,
  ids: readonly string[],
): Promise<(Readable<Space> | null)[]> {
  requireViewer(ctx);
  return visibleOf(ctx, await spaceReads(ctx).space.loadMany(ids));
}

/** `loadVisibleSpaces` as summaries (nested lists whose items select only `spaceSummaryFields`). */
async function loadVisibleSpaceSummaries(
  ctx: RequestContext,
  ids: readonly string[],
): Promise<(Readable<SpaceSummary> | null)[]> {
  requireViewer(ctx);
  return visibleOf(ctx, await spaceReads(ctx).summary.loadMany(ids));
}

/** The rows the viewer may see, their roles settled for `spacePermissions`; null for the rest and deleted ones. */
async function visibleOf<Row extends SpaceSummary>(
  ctx: RequestContext,
  rows: readonly (Row | null | Error)[],
): Promise<(Readable<Row> | null)[]> {
  const live = rows.map((value) => {
    const space = loadedOrNull(value);
    return space && !space.deletedAt ? space : null;
  });
  const roles = await liveSpaceRoles(ctx, live);
  return live.map((space, index) => {
    const role = roles[index] ?? null;
    if (!space) return null;
    spaceReads(ctx).settledRoles.set(space, role);
    return readableIf(space, spaceRoleAtLeast(role, space, "read"));
  });
}

export async function getSpace(ctx: RequestContext, spaceId: string): Promise<Readable<Space>> {
  const [space] = await loadVisibleSpaces(ctx, [spaceId]);
  if (!space) throw new NotFoundError(`Space ${spaceId} not found`);
  return space;
}

/** The space when the viewer has at least `least` on it: 404 when they may not see it, 403 when too low. */
export async function requireSpaceRole(ctx: RequestContext, spaceId: string, least: Role): Promise<Readable<Space>> {
  const space = await getSpace(ctx, spaceId);
  enforce(spaceRoleAtLeast(await spaceRole(ctx, space), space, least));
  return space;
}

/** For content edits: `edit` on the space and the space not locked. */
export async function requireSpaceEditable(ctx: RequestContext, spaceId: string): Promise<Readable<Space>> {
  const space = await getSpace(ctx, spaceId);
  enforce(canEditSpaceContent(await spaceRole(ctx, space), space));
  return space;
}

/** What the viewer may do on the space: at once when its visibility was decided in this request. */
export function spacePermissions(
  ctx: RequestContext,
  space: SpaceSummary,
): SpacePermissions | Promise<SpacePermissions> {
  const settled = spaceReads(ctx).settledRoles.get(space);
  if (settled !== undefined) return spacePermissionsFor(space, settled);
  return spaceRole(ctx, space).then((role) => spacePermissionsFor(space, role));
}

/**
 * Live spaces of an organization the viewer can see: the rule of `roleFromGrants` as a Prisma filter, held to it by
 * test/property/space-visibility.test.ts.
 */
export async function visibleSpacesWhere(ctx: RequestContext, organizationId: string): Promise<Prisma.SpaceWhereInput> {
  // Guests see the spaces they were invited to; only non-members get a 404.
  const membership = await requireMembership(ctx, organizationId);
  const where: Prisma.SpaceWhereInput = { organizationId, deletedAt: null };
  if (membership.role !== "admin") {
    const userId = requireViewer(ctx).userId;
    const visible: Prisma.SpaceWhereInput[] = [
      // The user's grants and their teams' as two tests, not one OR inside: each then reaches the grants through
      // its own index (by user, by team) instead of testing every grant row.
      { permissions: { some: { userId } } },
      { permissions: { some: { team: { members: { some: { userId } } } } } },
      { visibility: { in: ["public", "unlisted"] } },
    ];
    if (membership.role) {
      visible.push({ defaultLevel: { not: null } });
      visible.push({ visibility: "in-collection", parent: { defaultLevel: { not: null } } });
    }
    where.OR = visible;
  }
  return where;
}

/**
 * `visibleSpacesWhere` as a SQL condition on the "Space" row aliased `s`, for statements written by hand (search):
 * the viewer's readable live spaces of the organization, decided in the statement that reads them. Team grants are
 * reached through the viewer's team memberships (indexed by user), grants through their space and team indexes.
 */
export async function visibleSpacesSql(ctx: RequestContext, organizationId: string): Promise<Prisma.Sql> {
  const membership = await requireMembership(ctx, organizationId);
  const live = Prisma.sql`s."organizationId" = ${organizationId} AND s."deletedAt" IS NULL`;
  if (membership.role === "admin") return live;
  const userId = requireViewer(ctx).userId;
  const visible = [
    Prisma.sql`EXISTS (SELECT 1 FROM "SpacePermission" AS p WHERE p."spaceId" = s."id" AND (p."userId" = ${userId}
      OR p."teamId" IN (SELECT tm."teamId" FROM "TeamMember" AS tm WHERE tm."userId" = ${userId})))`,
    Prisma.sql`s."visibility" IN ('public', 'unlisted')`,
  ];
  if (membership.role) {
    visible.push(Prisma.sql`s."defaultLevel" IS NOT NULL`);
    visible.push(Prisma.sql`(s."visibility" = 'in-collection' AND EXISTS (SELECT 1 FROM "Collection" AS c
      WHERE c."id" = s."parentId" AND c."defaultLevel" IS NOT NULL))`);
  }
  return Prisma.sql`${live} AND (${Prisma.join(visible, " OR ")})`;
}

/**
 * `loadVisibleSpaces` once per space per request: a nested read reaches the same space from many site spaces (2000
 * site spaces over 200 spaces in the bench), and each would otherwise decide the viewer's role again.
 */
export const visibleSpaceLoader = defineLoader<string, Readable<Space> | null>("visibleSpace", loadVisibleSpaces);

/** `visibleSpaceLoader` as summaries. */
export const visibleSpaceSummaryLoader = defineLoader<string, Readable<SpaceSummary> | null>(
  "visibleSpaceSummary",
  loadVisibleSpaceSummaries,
);
