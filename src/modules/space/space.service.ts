import { requireViewer, viewerMembershipLoader } from "../../auth/access.ts";
import type { RequestContext } from "../../context.ts";
import type { Space } from "../../db/generated/client.ts";
import { NotFoundError } from "../../errors.ts";
import { spaceByIdLoader } from "./space.loaders.ts";

/**
 * Spaces for `node`/`nodes` and nested reads: null for deleted spaces and for spaces of organizations the viewer
 * is not a member of.
 */
export async function loadVisibleSpaces(ctx: RequestContext, ids: readonly string[]): Promise<(Space | null)[]> {
  requireViewer(ctx);
  const spaces = await spaceByIdLoader(ctx).loadMany(ids);
  const live = spaces.map((space) => (space && !(space instanceof Error) && !space.deletedAt ? space : null));
  const memberships = await viewerMembershipLoader(ctx).loadMany(live.map((space) => space?.organizationId ?? ""));
  return live.map((space, index) => {
    const membership = memberships[index];
    return space && membership && !(membership instanceof Error) && !membership.disabled ? space : null;
  });
}

export async function getSpace(ctx: RequestContext, spaceId: string): Promise<Space> {
  const [space] = await loadVisibleSpaces(ctx, [spaceId]);
  if (!space) throw new NotFoundError(`Space ${spaceId} not found`);
  return space;
}
