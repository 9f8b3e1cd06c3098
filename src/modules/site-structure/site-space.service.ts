import { z } from "zod";
import type { Prisma, Site, SiteSpace, Space } from "../../db/generated/client.ts";
import { ConflictError, InvalidInputError, NotFoundError } from "../../lib/errors.ts";
import { type Placement, placeAmong } from "../../lib/placement.ts";
import { slugify, uniquePath } from "../../lib/slug.ts";
import { parseInput } from "../../lib/validation.ts";
import { type ListArgs, parseFilter, sortFor } from "../../paging/list-order.ts";
import type { PageArgs } from "../../paging/pagination.ts";
import { newId } from "../../platform/ids.ts";
import type { RequestContext } from "../../request/context.ts";
import { parseCondition } from "./condition.ts";
import { writePositions, writeStructure } from "./ordering.ts";
import { readableSite, requireSite, siteOrganizationId } from "./site.access.ts";
import { canAdministerSite } from "./site.policy.ts";
import { settledPage, siteSpaceFilterSchema, siteSpaceListOrder, siteSpacePage } from "./site-space-list.service.ts";
import { requireItemSite } from "./structure-parents.service.ts";
import { structureReads } from "./structure-reads.ts";
import type { SiteSpaceSettling } from "./structure-selection.ts";
import { liveSiteSpace, type SiteSpaceRow, siteSpaceOrder } from "./structure-sql.ts";

export const pathSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._~-]*$/, "letters, digits, '.', '_', '~' and '-', starting with a letter or digit");
/** A condition expression, checked at write time; a blank one means no condition. */
export const conditionSchema = z
  .string()
  .max(1024)
  .superRefine((text, issue) => {
    if (!text.trim()) return;
    try {
      parseCondition(text);
    } catch (error) {
      issue.addIssue({ code: "custom", message: (error as Error).message });
    }
  })
  .transform((text) => (text.trim() ? text : null));

/** A live space of the site's organization, else 400 (the body names something that cannot be used). */
export async function requireSpaceOf(tx: Prisma.TransactionClient, site: Site, spaceId: string) {
  const space = await tx.space.findFirst({
    where: { id: spaceId, organizationId: site.organizationId, deletedAt: null },
  });
  if (!space) throw new InvalidInputError(`spaceId: space ${spaceId} not found in this organization`);
  return space;
}

/**
 * Adds a space to a site: in `sectionId`, else in the site's default section, else at the root (sites without
 * sections). Its path comes from the space's title, unique in its scope; the first site space of a scope becomes
 * the scope's default. Used by `POST ORG/sites` with `spaces` too, so it reads the site's pointers inside `tx`.
 */
export async function insertSiteSpace(
  tx: Prisma.TransactionClient,
  site: Site,
  input: { spaceId: string; sectionId?: string | null },
  now: Date,
): Promise<SiteSpace> {
  const current = await tx.site.findUniqueOrThrow({ where: { id: site.id } });
  const space = await requireSpaceOf(tx, current, input.spaceId);
  let sectionId = current.defaultSectionId;
  if (input.sectionId) {
    const section = await tx.siteSection.findFirst({ where: { id: input.sectionId, siteId: site.id } });
    if (!section) throw new InvalidInputError(`sectionId: section ${input.sectionId} not found in this site`);
    sectionId = section.id;
  }
  const siblings = await tx.siteSpace.findMany({
    where: { siteId: site.id, sectionId },
    select: { path: true, position: true },
  });
  const siteSpace = await tx.siteSpace.create({
    data: {
      id: newId("SiteSpace"),
      siteId: site.id,
      sectionId,
      spaceId: space.id,
      path: uniquePath(slugify(space.title, "space"), new Set(siblings.map((row) => row.path))),
      position: Math.max(-1, ...siblings.map((row) => row.position)) + 1,
      createdAt: now,
    },
  });
  if (sectionId) {
    await tx.siteSection.updateMany({
      where: { id: sectionId, defaultSiteSpaceId: null },
      data: { defaultSiteSpaceId: siteSpace.id },
    });
  } else if (!current.defaultSiteSpaceId) {
    await tx.site.update({ where: { id: site.id }, data: { defaultSiteSpaceId: siteSpace.id } });
  }
  return siteSpace;
}

/** Its own title, else its space's title, else (to a caller who may not read the space) its path. */
export function siteSpaceTitle(ctx: RequestContext, siteSpace: SiteSpaceRow): Promise<string> | string {
  if (siteSpace.title !== null) return siteSpace.title;
  const titleOf = (space: Space | null) => space?.title ?? siteSpace.path;
  const space = structureReads(ctx).spaceOf(siteSpace);
  return space instanceof Promise ? space.then(titleOf) : titleOf(space);
}

export async function listSiteSpaces(
  ctx: RequestContext,
  organizationId: string,
  siteId: string,
  page: PageArgs,
  filters: { shareKey?: string | null; default?: boolean | null },
  list: ListArgs,
  settling: SiteSpaceSettling,
) {
  const site = await readableSite(ctx, organizationId, siteId, filters.shareKey);
  const sort = sortFor(siteSpaceListOrder, list.orderBy, siteSpaceOrder);
  const filter = parseFilter(siteSpaceFilterSchema, list.filter);
  const defaults =
    filters.default === null || filters.default === undefined
      ? undefined
      : { ids: [...(await structureReads(ctx).defaults.load(site.id))], wanted: filters.default };
  return settledPage(ctx, await siteSpacePage(ctx, site.id, page, sort, filter, defaults), settling);
}

export const addSiteSpaceSchema = z.strictObject({
  spaceId: z.string().min(1).describe("Id of a space of the organization to show on the site"),
  sectionId: z
    .string()
    .min(1)
    .nullish()
    .describe("Id of a section of the site to add it to; omitted: the default section, or the root without sections"),
});

export async function addSiteSpace(
  ctx: RequestContext,
  organizationId: string | null | undefined,
  siteId: string,
  input: unknown,
) {
  const site = await requireSite(ctx, await siteOrganizationId(ctx, organizationId, siteId), siteId, canAdministerSite);
  const data = parseInput(addSiteSpaceSchema, input);
  return writeStructure(ctx, site.id, (tx) => insertSiteSpace(tx, site, data, ctx.clock.now()));
}

async function findSiteSpace(tx: Prisma.TransactionClient, siteId: string, siteSpaceId: string) {
  const siteSpace = await tx.siteSpace.findFirst({ where: { id: siteSpaceId, siteId, ...liveSiteSpace } });
  if (!siteSpace) throw new NotFoundError(`Site space ${siteSpaceId} not found`);
  return siteSpace;
}

export const updateSiteSpaceSchema = z.strictObject({
  path: pathSchema
    .optional()
    .describe("The site space's URL path; unique in its scope (section or root; a CONFLICT error when taken)"),
  condition: conditionSchema
    .nullish()
    .describe(
      "Expression over `visitor.claims` that must hold for a visitor to see the site space; null or blank removes it",
    ),
  spaceId: z.string().min(1).optional().describe("Id of another space of the organization to show instead"),
});

/** Paths are unique per scope: a clash is a 409 (the path is valid, it is taken). */
export async function updateSiteSpace(
  ctx: RequestContext,
  organizationId: string | null | undefined,
  siteId: string | null | undefined,
  siteSpaceId: string,
  input: unknown,
) {
  const site = await requireItemSite(ctx, { organizationId, siteId }, { type: "SiteSpace", id: siteSpaceId });
  const data = parseInput(updateSiteSpaceSchema, input);
  return writeStructure(ctx, site.id, async (tx) => {
    const siteSpace = await findSiteSpace(tx, site.id, siteSpaceId);
    if (data.spaceId) await requireSpaceOf(tx, site, data.spaceId);
    if (data.path && data.path !== siteSpace.path) {
      const clash = await tx.siteSpace.findFirst({
        where: { siteId: site.id, sectionId: siteSpace.sectionId, path: data.path, id: { not: siteSpace.id } },
      });
      if (clash) throw new ConflictError(`path ${data.path} is already used in this scope`);
    }
    return tx.siteSpace.update({ where: { id: siteSpace.id }, data });
  });
}

/** Deletes a site space; when it was its scope's default, the next one in order becomes the default. */
export async function deleteSiteSpace(
  ctx: RequestContext,
  organizationId: string | null | undefined,
  siteId: string | null | undefined,
  siteSpaceId: string,
) {
  const site = await requireItemSite(ctx, { organizationId, siteId }, { type: "SiteSpace", id: siteSpaceId });
  await writeStructure(ctx, site.id, async (tx) => {
    const siteSpace = await tx.siteSpace.findFirst({ where: { id: siteSpaceId, siteId: site.id } });
    if (!siteSpace) return;
    await tx.siteSpace.delete({ where: { id: siteSpace.id } });
    await repairDefaultSiteSpace(tx, site.id, siteSpace.sectionId);
  });
}

/** Points the scope's default at a remaining live site space when it no longer names one. */
export async function repairDefaultSiteSpace(tx: Prisma.TransactionClient, siteId: string, sectionId: string | null) {
  const owner = sectionId
    ? await tx.siteSection.findUnique({ where: { id: sectionId }, select: { defaultSiteSpaceId: true } })
    : await tx.site.findUnique({ where: { id: siteId }, select: { defaultSiteSpaceId: true } });
  if (!owner) return;
  const scope = { siteId, sectionId, ...liveSiteSpace };
  if (
    owner.defaultSiteSpaceId &&
    (await tx.siteSpace.count({ where: { ...scope, id: owner.defaultSiteSpaceId } })) > 0
  ) {
    return;
  }
  const next = await tx.siteSpace.findFirst({
    where: scope,
    orderBy: siteSpaceOrder.map((key) => ({ [key.field]: key.direction })),
  });
  const data = { defaultSiteSpaceId: next?.id ?? null };
  if (sectionId) await tx.siteSection.update({ where: { id: sectionId }, data });
  else await tx.site.update({ where: { id: siteId }, data });
}

export const siteSpacePointerSchema = z.strictObject({
  type: z.literal("site-space").describe('Always "site-space"'),
  siteSpace: z.string().min(1).describe("Id of a site space of the same scope (section or root)"),
});

export const siteSpacePositionSchema = z.strictObject({
  before: siteSpacePointerSchema.optional().describe("Place it just before this site space"),
  after: siteSpacePointerSchema.optional().describe("Place it just after this site space"),
});

export const siteSpacePlacementSchema = z.strictObject({
  position: siteSpacePositionSchema.optional().describe("Where to place the site space; omitted: at the end"),
});

/**
 * `moveSiteSpace` (the public API's, which sortSiteStructure covers too): reorders among the site spaces of the same
 * scope.
 */
export async function moveSiteSpace(
  ctx: RequestContext,
  organizationId: string | null | undefined,
  siteId: string | null | undefined,
  siteSpaceId: string,
  input: unknown,
) {
  const site = await requireItemSite(ctx, { organizationId, siteId }, { type: "SiteSpace", id: siteSpaceId });
  const { position } = parseInput(siteSpacePlacementSchema, input);
  return writeStructure(ctx, site.id, async (tx) => {
    const siteSpace = await findSiteSpace(tx, site.id, siteSpaceId);
    await reorderSiteSpace(tx, siteSpace, { before: position?.before?.siteSpace, after: position?.after?.siteSpace });
    return tx.siteSpace.findUniqueOrThrow({ where: { id: siteSpace.id } });
  });
}

export async function reorderSiteSpace(tx: Prisma.TransactionClient, siteSpace: SiteSpace, placement: Placement) {
  const siblings = await tx.siteSpace.findMany({
    where: { siteId: siteSpace.siteId, sectionId: siteSpace.sectionId },
    orderBy: siteSpaceOrder.map((key) => ({ [key.field]: key.direction })),
    select: { id: true },
  });
  await writePositions(
    tx,
    placeAmong(
      siblings.map((row) => row.id),
      siteSpace.id,
      placement,
    ),
  );
}
