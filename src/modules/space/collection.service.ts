import { z } from "zod";
import { readsOrganization, viewerMembershipLoader } from "../../auth/access.ts";
import { authorizeInOrganization } from "../../auth/authorize.ts";
import { hasRole } from "../../auth/roles.ts";
import type { Collection } from "../../db/generated/client.ts";
import { InvalidInputError, loadedOrNull, NotFoundError } from "../../lib/errors.ts";
import { parseInput } from "../../lib/validation.ts";
import { type PageArgs, paginate, type SortKey } from "../../paging/pagination.ts";
import { newId } from "../../platform/ids.ts";
import type { RequestContext } from "../../request/context.ts";
import { canCreateSpaces, canListCollections } from "./space.policy.ts";
import { spaceReads } from "./space-reads.ts";

/** Collections are organization structure: `read` members see them (not guests); spaces inside keep their access. */
/** An organization's collections, oldest first. */
export const collectionOrder: SortKey<Collection>[] = [
  { field: "createdAt", direction: "asc" },
  { field: "id", direction: "asc" },
];

export async function listCollections(ctx: RequestContext, organizationId: string, nested: boolean, page: PageArgs) {
  await authorizeInOrganization(ctx, organizationId, canListCollections);
  return paginate<Collection>(page, {
    sort: collectionOrder,
    where: nested ? { organizationId } : { organizationId, parentId: null },
    model: ctx.prisma.collection,
  });
}

/** Collections for `node`/`nodes` and `collection(id)`: null unless the viewer reads their organization. */
export async function loadVisibleCollections(ctx: RequestContext, ids: readonly string[]) {
  const collections = await spaceReads(ctx).collection.loadMany(ids);
  const found = collections.map(loadedOrNull);
  const memberships = await viewerMembershipLoader(ctx).loadMany(found.map((c) => c?.organizationId ?? ""));
  return found.map((collection, index) => (collection && readsOrganization(memberships[index]) ? collection : null));
}

/** The collection a space or collection sits in (its `parent` field); null at the root or when not visible. */
export async function parentCollection(ctx: RequestContext, collectionId: string | null): Promise<Collection | null> {
  if (!collectionId) return null;
  const [collection] = await loadVisibleCollections(ctx, [collectionId]);
  return collection ?? null;
}

export async function getCollection(ctx: RequestContext, collectionId: string): Promise<Collection> {
  const [collection] = await loadVisibleCollections(ctx, [collectionId]);
  if (!collection) throw new NotFoundError(`Collection ${collectionId} not found`);
  return collection;
}

export async function collectionPermissions(ctx: RequestContext, collection: Collection) {
  const membership = await viewerMembershipLoader(ctx).load(collection.organizationId);
  const role = membership && !membership.disabled ? membership.role : null;
  return {
    view: readsOrganization(membership),
    admin: hasRole(role, "admin"),
    viewInviteLinks: hasRole(role, "create"),
    create: hasRole(role, "create"),
  };
}

export const createCollectionSchema = z.strictObject({
  title: z.string().trim().min(1).max(50).optional().describe('The collection\'s title, trimmed; omitted: "Untitled"'),
  parent: z
    .string()
    .min(1)
    .optional()
    .describe("Id of a collection of the organization to nest it in; omitted: the root"),
});

export async function createCollection(ctx: RequestContext, organizationId: string, input: unknown) {
  await authorizeInOrganization(ctx, organizationId, canCreateSpaces);
  const data = parseInput(createCollectionSchema, input);
  return ctx.prisma.$transaction(async (tx) => {
    if (data.parent && !(await tx.collection.findFirst({ where: { id: data.parent, organizationId } }))) {
      throw new InvalidInputError(`Unknown collection ${data.parent}`);
    }
    const last = await tx.collection.aggregate({
      where: { organizationId, parentId: data.parent ?? null },
      _max: { position: true },
    });
    const now = ctx.clock.now();
    return tx.collection.create({
      data: {
        id: newId("Collection"),
        organizationId,
        parentId: data.parent ?? null,
        title: data.title ?? "Untitled",
        position: (last._max.position ?? -1) + 1,
        createdAt: now,
        updatedAt: now,
      },
    });
  });
}
