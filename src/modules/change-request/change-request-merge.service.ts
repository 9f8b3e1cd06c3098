import { requireViewer } from "../../auth/access.ts";
import type { ChangeRequest, Space } from "../../db/generated/client.ts";
import { ConflictError, ForbiddenError } from "../../lib/errors.ts";
import type { RequestContext } from "../../request/context.ts";
import {
  type ContentState,
  type MergeConflict,
  mergeContent,
  newPageLinks,
  newPageSections,
  onLatestHead,
  pagesToCompare,
  readContentOutline,
  readPageBodies,
  withBodies,
  writeRevision,
} from "../content/content.public.ts";
import { requireSpaceEditable, requireSpaceRole } from "../space/space.public.ts";
import { missingApprovals } from "./change-request.policy.ts";
import {
  announce,
  type ChangeRequestStatus,
  changeRequestSpaceId,
  counterChanges,
  getChangeRequest,
  moveChangeRequestHead,
  requireWritable,
} from "./change-request.service.ts";
import { mergeBaseOf } from "./change-request-fields.service.ts";

function conflictError(conflicts: MergeConflict[]): ConflictError {
  const listed = conflicts
    .slice(0, 20)
    .map((conflict) => `"${conflict.title}" (${conflict.id}): ${conflict.reason}`)
    .join("; ");
  return new ConflictError(`Merge conflicts on ${conflicts.length} item(s): ${listed}`);
}

/** `theirs` merged into `ours` against their common ancestor `base`; 409 naming every conflict otherwise. */
export function mergeOrRefuse(base: ContentState, ours: ContentState, theirs: ContentState): ContentState {
  const { state, conflicts } = mergeContent(base, ours, theirs);
  if (conflicts.length > 0) throw conflictError(conflicts);
  return state;
}

/**
 * Where a merge lands: `space` merges the change request into the space (`mergeChangeRequest`); `change-request`
 * pulls the space's content into the change request (`updateChangeRequestFromSpace`).
 */
export type MergeDirection = "space" | "change-request";

/** The revisions of a three-way merge: `theirs` goes into `ours`, against their common ancestor `base`. */
export interface MergeSides {
  base: string;
  ours: string;
  theirs: string;
}

/**
 * What a merge in `direction` combines, given the space's current revision: null when the change request already
 * holds the space's content (nothing to pull).
 */
export function mergeSides(
  direction: MergeDirection,
  spaceRevisionId: string,
  changeRequest: ChangeRequest,
): MergeSides | null {
  const base = mergeBaseOf(changeRequest);
  if (direction === "space") return { base, ours: spaceRevisionId, theirs: changeRequest.revisionId };
  if (spaceRevisionId === base) return null;
  return { base, ours: changeRequest.revisionId, theirs: spaceRevisionId };
}

/**
 * The merged content, and the receiving side's as read (what the merge's revision copies but what changed). The
 * three sides are read without markdown; only the pages changed on both sides have their bodies read, to compare.
 */
async function mergeRevisions(
  ctx: RequestContext,
  { base, ours, theirs }: MergeSides,
): Promise<{ state: ContentState; ours: ContentState }> {
  const outlines = await Promise.all([
    readContentOutline(ctx.prisma, base),
    readContentOutline(ctx.prisma, ours),
    readContentOutline(ctx.prisma, theirs),
  ]);
  const [baseOutline, oursOutline, theirsOutline] = outlines;
  const bodies = await readPageBodies(ctx.prisma, outlines, pagesToCompare(baseOutline, oursOutline, theirsOutline));
  const state = mergeOrRefuse(
    withBodies(baseOutline, bodies),
    withBodies(oursOutline, bodies),
    withBodies(theirsOutline, bodies),
  );
  return { state, ours: oursOutline };
}

export interface MergeResult {
  revision: string;
  result: "merge" | "update";
}

/** The space's merge rules: refused (403) until each reviewer they name has approved the current changes. */
async function requireMergeRules(ctx: RequestContext, space: Space, changeRequest: ChangeRequest) {
  // Without rules there are no reviews to read.
  if ((space.mergeRules as { type?: string }).type !== "rules") return;
  const reviews = await ctx.prisma.changeRequestReview.findMany({
    where: { changeRequestId: changeRequest.id },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  const missing = missingApprovals(space.mergeRules, changeRequest.revisionId, reviews);
  if (missing.length > 0) {
    throw new ForbiddenError(
      `The space's merge rules require an approval of the current changes from: ${missing.join(", ")}`,
    );
  }
}

/**
 * The merge both directions share: a three-way merge against the common ancestor, written in one transaction that
 * moves the receiving side only if it is still at the revision the merge started from. A merge that loses that
 * race starts over on the new revisions, so concurrent merges never drop each other's changes.
 */
async function mergeInto(
  ctx: RequestContext,
  spaceId: string,
  id: string,
  direction: MergeDirection,
): Promise<MergeResult> {
  const result = await onLatestHead(async (headMoved) => {
    const [changeRequest, space] = await Promise.all([
      ctx.prisma.changeRequest.findUniqueOrThrow({ where: { id } }),
      ctx.prisma.space.findUniqueOrThrow({ where: { id: spaceId } }),
    ]);
    requireWritable(changeRequest);
    const sides = mergeSides(direction, space.revisionId, changeRequest);
    if (!sides) return { revision: changeRequest.revisionId, result: "update" as const };
    if (direction === "space") await requireMergeRules(ctx, space, changeRequest);
    const { ours, theirs } = sides;
    const { state, ours: oursState } = await mergeRevisions(ctx, sides);
    const [links, sections] = await Promise.all([newPageLinks(ctx.budget, state), newPageSections(ctx.work, state)]);
    return ctx.prisma.$transaction(async (tx) => {
      const now = ctx.clock.now();
      const revision = await writeRevision(tx, {
        spaceId,
        parents: [ours, theirs],
        from: { revisionId: ours, state: oursState },
        type: direction === "space" ? "merge" : "update",
        changeRequestId: id,
        createdById: requireViewer(ctx).userId,
        createdAt: now,
        state,
        links,
        sections,
      });
      if (direction === "change-request") {
        await moveChangeRequestHead(
          tx,
          changeRequest,
          { revisionId: revision, revisionMergedAncestor: space.revisionId },
          headMoved,
          now,
        );
        return { revision, result: "update" as const };
      }
      const moved = await tx.space.updateMany({
        where: { id: spaceId, revisionId: space.revisionId, deletedAt: null },
        data: {
          revisionId: revision,
          updatedAt: now,
          ...counterChanges(changeRequest.status as ChangeRequestStatus, "merged"),
        },
      });
      if (moved.count === 0) headMoved();
      await moveChangeRequestHead(
        tx,
        changeRequest,
        { status: "merged", revisionMerged: revision, mergedAt: now },
        headMoved,
        now,
      );
      return { revision, result: "merge" as const };
    });
  });
  return announce(ctx, id, result);
}

/**
 * Pulls the space's current content into the change request (three-way merge against the last space revision
 * it took in). Nothing to pull answers the change request's own revision.
 */
export async function updateChangeRequestFromSpace(
  ctx: RequestContext,
  givenSpaceId: string | null | undefined,
  idOrNumber: string,
): Promise<MergeResult> {
  const spaceId = await changeRequestSpaceId(ctx, givenSpaceId, idOrNumber);
  await requireSpaceEditable(ctx, spaceId);
  const { id } = await getChangeRequest(ctx, spaceId, idOrNumber);
  return mergeInto(ctx, spaceId, id, "change-request");
}

/** Merges the change request into the space, once the space's merge rules are met (review role). */
export async function mergeChangeRequest(
  ctx: RequestContext,
  givenSpaceId: string | null | undefined,
  idOrNumber: string,
): Promise<MergeResult> {
  const spaceId = await changeRequestSpaceId(ctx, givenSpaceId, idOrNumber);
  await requireSpaceRole(ctx, spaceId, "review");
  await requireSpaceEditable(ctx, spaceId);
  const { id } = await getChangeRequest(ctx, spaceId, idOrNumber);
  return mergeInto(ctx, spaceId, id, "space");
}
