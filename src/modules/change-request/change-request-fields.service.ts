import { hasRole } from "../../auth/roles.ts";
import type { ChangeRequest, Role, Space, User } from "../../db/generated/client.ts";
import type { RequestContext } from "../../request/context.ts";
import { defineSettled, loadedByKey } from "../../request/loaders.ts";
import { spaceByIdLoader, spaceRole } from "../space/space.public.ts";
import { userByIdLoader } from "../user/user.public.ts";

/** A change request's space and the viewer's role on it. */
interface SpaceWithRole {
  space: Space | null;
  role: Role | null;
}

const settledSpaces = defineSettled<string, SpaceWithRole>("change request spaces");
const settledUsers = defineSettled<string, User | null>("change request users");

/**
 * Loads what a list's rows' fields derive from other rows (each distinct space with the viewer's role on it, each
 * distinct creator) and keeps it for the request: a page of a thousand change requests otherwise asked the space,
 * user and role loaders through several promises per row. A value that fails to load is left for its field to
 * load, and fail, on its own.
 */
export async function settleChangeRequestFields(ctx: RequestContext, rows: readonly ChangeRequest[]): Promise<void> {
  const spaceIds = [...new Set(rows.map((row) => row.spaceId))];
  const creatorIds = [...new Set(rows.map((row) => row.createdById).filter((id): id is string => id !== null))];
  const [spaces, users] = await Promise.all([
    spaceByIdLoader(ctx).loadMany(spaceIds),
    userByIdLoader(ctx).loadMany(creatorIds),
  ]);
  await Promise.all(
    [...loadedByKey(spaceIds, spaces)].map(async ([spaceId, space]) => {
      const role = space ? await spaceRole(ctx, space).catch(() => undefined) : null;
      if (role !== undefined) settledSpaces.set(ctx, spaceId, { space, role });
    }),
  );
  for (const [creatorId, user] of loadedByKey(creatorIds, users)) settledUsers.set(ctx, creatorId, user);
}

async function loadSpaceWithRole(ctx: RequestContext, spaceId: string): Promise<SpaceWithRole> {
  const space = await spaceByIdLoader(ctx).load(spaceId);
  return { space, role: space ? await spaceRole(ctx, space) : null };
}

/** The value `settled` holds for `key`, else `load`'s promise; then `derive` of it. */
function settledOr<Value, Result>(
  settled: Value | undefined,
  load: () => Promise<Value>,
  derive: (value: Value) => Result,
): Result | Promise<Result> {
  return settled !== undefined ? derive(settled) : load().then(derive);
}

/** Who opened the change request; null when that user is gone. */
export function changeRequestCreator(ctx: RequestContext, changeRequest: ChangeRequest) {
  const { createdById } = changeRequest;
  if (createdById === null) return null;
  return settledOr(
    settledUsers.get(ctx, createdById),
    () => userByIdLoader(ctx).load(createdById),
    (user) => user,
  );
}

/** The space revision the change request last took in: the common ancestor of both sides. */
export function mergeBaseOf(changeRequest: ChangeRequest): string {
  return changeRequest.revisionMergedAncestor ?? changeRequest.revisionInitial;
}

/** True when the space moved on since the change request last took in its content. */
export function isOutdated(ctx: RequestContext, changeRequest: ChangeRequest): boolean | Promise<boolean> {
  if (changeRequest.status === "merged") return false;
  return settledOr(
    settledSpaces.get(ctx, changeRequest.spaceId)?.space,
    () => spaceByIdLoader(ctx).load(changeRequest.spaceId),
    (space) => Boolean(space && space.revisionId !== mergeBaseOf(changeRequest)),
  );
}

/** What the viewer may do with a change request (for clients deciding which actions to show). */
export function changeRequestPermissions(ctx: RequestContext, changeRequest: ChangeRequest) {
  const open = changeRequest.status === "open" || changeRequest.status === "draft";
  return settledOr(
    settledSpaces.get(ctx, changeRequest.spaceId),
    () => loadSpaceWithRole(ctx, changeRequest.spaceId),
    ({ space, role }) => {
      const editable = open && space?.editMode !== "locked";
      return {
        edit: editable && hasRole(role, "edit"),
        review: open && hasRole(role, "review"),
        merge: editable && hasRole(role, "review"),
      };
    },
  );
}
