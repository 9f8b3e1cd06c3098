import { z } from "zod";
import type { Prisma, Site, SiteSection, SiteSectionGroup } from "../../db/generated/client.ts";
import { ConflictError, InvalidInputError, NotFoundError } from "../../lib/errors.ts";
import { placeAmong } from "../../lib/placement.ts";
import { slugify, uniquePath } from "../../lib/slug.ts";
import { parseInput } from "../../lib/validation.ts";
import { newId } from "../../platform/ids.ts";
import type { RequestContext } from "../../request/context.ts";
import { evaluateCondition } from "./condition.ts";
import { nextStructurePosition, structureSiblings, writePositions, writeStructure } from "./ordering.ts";
import { requireSite, siteOrganizationId } from "./site.access.ts";
import { canAdministerSite, canReadSite } from "./site.policy.ts";
import {
  conditionSchema,
  insertSiteSpace,
  pathSchema,
  reorderSiteSpace,
  repairDefaultSiteSpace,
  requireSpaceOf,
} from "./site-space.service.ts";
import { requireItemSite } from "./structure-parents.service.ts";
import { structureReads } from "./structure-reads.ts";
import type { SpaceSettling } from "./structure-selection.ts";
import { type SiteSpaceRow, siteSectionOrder } from "./structure-sql.ts";

const sectionTitleSchema = z.string().trim().min(2).max(128);
export const iconSchema = z.string().min(1).max(50).describe("Icon name");

/** A section as GraphQL resolves it; `siteSpaces` is set when the structure was built (and filtered) in memory. */
export type SectionNode = SiteSection & { siteSpaces?: SiteSpaceRow[] };
/** A group as GraphQL resolves it; `children` is set when the structure was built (and filtered) in memory. */
export type GroupNode = SiteSectionGroup & { children?: StructureItem[] };
export type StructureItem = SectionNode | GroupNode;

export interface SiteStructure {
  /** `sections` when the site has sections, else `siteSpaces` (the site spaces at its root). */
  type: "sections" | "siteSpaces";
  structure: (StructureItem | SiteSpaceRow)[];
}

/**
 * A section's live site spaces: from the built structure when there is one, else batched over all sites, with
 * their spaces settled as the request's selection needs them.
 */
export function siteSpacesOfSection(
  ctx: RequestContext,
  section: SectionNode,
  settling: SpaceSettling,
): Promise<SiteSpaceRow[]> | SiteSpaceRow[] {
  if (section.siteSpaces) return section.siteSpaces;
  return structureReads(ctx)
    .siteSpacesBySectionOfSite(settling)
    .load(section.siteId)
    .then((sections) => sections.get(section.id) ?? []);
}

export async function isDefaultSection(ctx: RequestContext, section: SiteSection): Promise<boolean> {
  return (await structureReads(ctx).site.load(section.siteId))?.defaultSectionId === section.id;
}

async function takenSectionPaths(tx: Prisma.TransactionClient, siteId: string) {
  const rows = await tx.siteSection.findMany({ where: { siteId }, select: { path: true } });
  return new Set(rows.map((row) => row.path));
}

async function insertSection(tx: Prisma.TransactionClient, site: Site, title: string, icon: string | null, now: Date) {
  return tx.siteSection.create({
    data: {
      id: newId("SiteSection"),
      siteId: site.id,
      title,
      icon,
      path: uniquePath(slugify(title, "section"), await takenSectionPaths(tx, site.id)),
      position: await nextStructurePosition(tx, site.id, null),
      createdAt: now,
    },
  });
}

export const addSectionSchema = z.strictObject({
  spaceId: z.string().min(1).describe("Id of a space of the organization: the section's first site space"),
  title: sectionTitleSchema
    .nullish()
    .describe("The section's title, trimmed; omitted: the space's title (\"Section\" when that does not fit)"),
  icon: iconSchema.nullish(),
});

/**
 * Adds a section holding `spaceId` as its first site space. A site whose content sat at its root (no sections)
 * first gets that content moved into a section named after the site, so a site is either all sections or all
 * root site spaces. The first section becomes the site's default.
 */
export async function addSiteSection(
  ctx: RequestContext,
  organizationId: string | null | undefined,
  siteId: string,
  input: unknown,
) {
  const site = await requireSite(ctx, await siteOrganizationId(ctx, organizationId, siteId), siteId, canAdministerSite);
  const data = parseInput(addSectionSchema, input);
  const now = ctx.clock.now();
  return writeStructure(ctx, site.id, async (tx) => {
    const space = await requireSpaceOf(tx, site, data.spaceId);
    const current = await tx.site.findUniqueOrThrow({ where: { id: site.id } });
    if (!current.defaultSectionId && (await tx.siteSpace.count({ where: { siteId: site.id, sectionId: null } })) > 0) {
      const first = await insertSection(
        tx,
        current,
        sectionTitleSchema.safeParse(current.title).data ?? "Docs",
        null,
        now,
      );
      await tx.siteSpace.updateMany({ where: { siteId: site.id, sectionId: null }, data: { sectionId: first.id } });
      await tx.siteSection.update({
        where: { id: first.id },
        data: { defaultSiteSpaceId: current.defaultSiteSpaceId },
      });
      await tx.site.update({ where: { id: site.id }, data: { defaultSiteSpaceId: null, defaultSectionId: first.id } });
      await repairDefaultSiteSpace(tx, site.id, first.id);
    }
    const title = data.title ?? sectionTitleSchema.safeParse(space.title).data ?? "Section";
    const section = await insertSection(tx, current, title, data.icon ?? null, now);
    await insertSiteSpace(tx, current, { spaceId: space.id, sectionId: section.id }, now);
    await tx.site.updateMany({
      where: { id: site.id, defaultSectionId: null },
      data: { defaultSectionId: section.id },
    });
    return tx.siteSection.findUniqueOrThrow({ where: { id: section.id } });
  });
}

async function findSection(tx: Prisma.TransactionClient, siteId: string, sectionId: string) {
  const section = await tx.siteSection.findFirst({ where: { id: sectionId, siteId } });
  if (!section) throw new NotFoundError(`Site section ${sectionId} not found`);
  return section;
}

export const updateSectionSchema = z.strictObject({
  title: sectionTitleSchema.optional().describe("The section's title, trimmed"),
  path: pathSchema
    .optional()
    .describe("The section's URL path; unique among the site's sections (a CONFLICT error when taken)"),
  defaultSiteSpace: z
    .string()
    .min(1)
    .optional()
    .describe("Id of the site space visitors land on: one of this section's"),
  condition: conditionSchema
    .nullish()
    .describe(
      "Expression over `visitor.claims` that must hold for a visitor to see the section; null or blank removes it",
    ),
  icon: iconSchema.nullish().describe("Icon name; null removes it"),
  description: z.string().max(256).nullish().describe("Short description shown with the section; null removes it"),
});

/** Section paths are unique per site: a clash is a 409 (the path is valid, it is taken). */
export async function updateSiteSection(
  ctx: RequestContext,
  organizationId: string | null | undefined,
  siteId: string | null | undefined,
  sectionId: string,
  input: unknown,
) {
  const site = await requireItemSite(ctx, { organizationId, siteId }, { type: "SiteSection", id: sectionId });
  const { defaultSiteSpace, ...data } = parseInput(updateSectionSchema, input);
  return writeStructure(ctx, site.id, async (tx) => {
    const section = await findSection(tx, site.id, sectionId);
    if (data.path && data.path !== section.path && (await takenSectionPaths(tx, site.id)).has(data.path)) {
      throw new ConflictError(`path ${data.path} is already used by another section of this site`);
    }
    if (defaultSiteSpace) {
      const siteSpace = await tx.siteSpace.findFirst({
        where: { id: defaultSiteSpace, sectionId: section.id, space: { deletedAt: null } },
      });
      if (!siteSpace)
        throw new InvalidInputError(`defaultSiteSpace: ${defaultSiteSpace} is not a site space of this section`);
    }
    return tx.siteSection.update({
      where: { id: section.id },
      data: { ...data, ...(defaultSiteSpace ? { defaultSiteSpaceId: defaultSiteSpace } : {}) },
    });
  });
}

/** Deletes a section and its site spaces; when it was the default, the first remaining section becomes it. */
export async function deleteSiteSection(
  ctx: RequestContext,
  organizationId: string | null | undefined,
  siteId: string | null | undefined,
  sectionId: string,
) {
  const site = await requireItemSite(ctx, { organizationId, siteId }, { type: "SiteSection", id: sectionId });
  await writeStructure(ctx, site.id, async (tx) => {
    const section = await tx.siteSection.findFirst({ where: { id: sectionId, siteId: site.id } });
    if (!section) return;
    await tx.siteSpace.deleteMany({ where: { sectionId: section.id } });
    await tx.siteSection.delete({ where: { id: section.id } });
    const current = await tx.site.findUniqueOrThrow({ where: { id: site.id } });
    if (current.defaultSectionId && current.defaultSectionId !== section.id) return;
    const next = await tx.siteSection.findFirst({
      where: { siteId: site.id },
      orderBy: siteSectionOrder.map((key) => ({ [key.field]: key.direction })),
    });
    await tx.site.update({ where: { id: site.id }, data: { defaultSectionId: next?.id ?? null } });
  });
}

export const sectionPointerSchema = z.strictObject({
  type: z.literal("site-section").describe('Always "site-section"'),
  siteSection: z.string().min(1).describe("Id of a section with the same parent (site root or group)"),
});

export const sectionPositionSchema = z.strictObject({
  before: sectionPointerSchema.optional().describe("Place it just before this section"),
  after: sectionPointerSchema.optional().describe("Place it just after this section"),
});

export const sectionPlacementSchema = z.strictObject({
  position: sectionPositionSchema.optional().describe("Where to place the section; omitted: at the end"),
});

/**
 * `moveSiteSection` (the public API's, which sortSiteStructure covers too): reorders among the items of the section's
 * parent (site root or group).
 */
export async function moveSiteSection(
  ctx: RequestContext,
  organizationId: string | null | undefined,
  siteId: string | null | undefined,
  sectionId: string,
  input: unknown,
) {
  const site = await requireItemSite(ctx, { organizationId, siteId }, { type: "SiteSection", id: sectionId });
  const { position } = parseInput(sectionPlacementSchema, input);
  return writeStructure(ctx, site.id, async (tx) => {
    const section = await findSection(tx, site.id, sectionId);
    const siblings = await structureSiblings(tx, site.id, section.sectionGroupId);
    const placement = { before: position?.before?.siteSection, after: position?.after?.siteSection };
    await writePositions(tx, placeAmong(siblings, section.id, placement));
    return tx.siteSection.findUniqueOrThrow({ where: { id: section.id } });
  });
}

/**
 * The site's structure built in memory from three batched reads: sections and groups nested in order, each
 * section with its site spaces. With `visitor`, items whose condition the visitor fails are left out, and so are
 * sections and groups left with nothing to show.
 */
async function buildStructure(ctx: RequestContext, site: Site, visitor: Record<string, unknown> | null) {
  const reads = structureReads(ctx);
  const [sections, groups, siteSpaces] = await Promise.all([
    reads.sectionsOfSite().load(site.id),
    reads.sectionGroups.load(site.id),
    reads.siteSpacesOfSite().load(site.id),
  ]);
  const shown = (condition: string | null) => !visitor || !condition || evaluateCondition(condition, visitor);
  const spacesBySection = new Map<string | null, SiteSpaceRow[]>();
  for (const siteSpace of siteSpaces) {
    if (!shown(siteSpace.condition)) continue;
    const list = spacesBySection.get(siteSpace.sectionId) ?? [];
    list.push(siteSpace);
    spacesBySection.set(siteSpace.sectionId, list);
  }
  const childrenOf = (groupId: string | null): StructureItem[] => {
    const items: StructureItem[] = [];
    for (const section of sections) {
      if (section.sectionGroupId !== groupId || !shown(section.condition)) continue;
      const own = spacesBySection.get(section.id) ?? [];
      if (!visitor || own.length > 0) items.push({ ...section, siteSpaces: own });
    }
    for (const group of groups) {
      if (group.parentGroupId !== groupId) continue;
      const children = childrenOf(group.id);
      if (!visitor || children.length > 0) items.push({ ...group, children });
    }
    return items.sort((a, b) => a.position - b.position || (a.id < b.id ? -1 : 1));
  };
  if (sections.length === 0)
    return { type: "siteSpaces", structure: spacesBySection.get(null) ?? [] } satisfies SiteStructure;
  return { type: "sections", structure: childrenOf(null) } satisfies SiteStructure;
}

/** `getSiteStructure`: the whole structure, unfiltered, for organization members. */
export async function siteStructure(
  ctx: RequestContext,
  organizationId: string,
  siteId: string,
): Promise<SiteStructure> {
  return buildStructure(ctx, await requireSite(ctx, organizationId, siteId, canReadSite), null);
}

/**
 * The structure a visitor of the published site sees (SITES serves it in `GET SITE/published`): conditions are
 * evaluated against `{ claims: visitorClaims }`, the `visitor` of condition expressions. The caller has already
 * decided that this visitor may open the site.
 */
export function publishedStructure(
  ctx: RequestContext,
  site: Site,
  visitorClaims: Record<string, unknown> | null,
): Promise<SiteStructure> {
  return buildStructure(ctx, site, { claims: visitorClaims ?? {} });
}

export const structurePointerSchema = z.strictObject({
  type: z.enum(["site-space", "site-section", "site-section-group"]).describe("The item's type"),
  id: z.string().min(1).describe("The item's id"),
});
export const structurePositionSchema = z.strictObject({
  before: structurePointerSchema.optional().describe("Place it just before this sibling"),
  after: structurePointerSchema.optional().describe("Place it just after this sibling"),
});
export const sortStructureSchema = z.strictObject({
  item: structurePointerSchema.describe("The item to move; it keeps its parent"),
  position: structurePositionSchema.describe(
    "Before or after a sibling (same parent; a site space: same section or root); neither: at the end",
  ),
});

/**
 * `sortSiteStructure`: places an item before or after a sibling (or at the end). Items keep their parent: a site
 * space moves within its scope, a section or group among the items of its parent; another target is a 400.
 */
export async function sortSiteStructure(
  ctx: RequestContext,
  organizationId: string | null | undefined,
  siteId: string,
  input: unknown,
) {
  const site = await requireSite(ctx, await siteOrganizationId(ctx, organizationId, siteId), siteId, canAdministerSite);
  const { item, position } = parseInput(sortStructureSchema, input);
  const placement = { before: position.before?.id, after: position.after?.id };
  return writeStructure(ctx, site.id, async (tx): Promise<StructureItem | SiteSpaceRow> => {
    if (item.type === "site-space") {
      const siteSpace = await tx.siteSpace.findFirst({
        where: { id: item.id, siteId: site.id, space: { deletedAt: null } },
      });
      if (!siteSpace) throw new NotFoundError(`Site space ${item.id} not found`);
      await reorderSiteSpace(tx, siteSpace, placement);
      return tx.siteSpace.findUniqueOrThrow({ where: { id: siteSpace.id } });
    }
    const found =
      item.type === "site-section"
        ? await tx.siteSection.findFirst({ where: { id: item.id, siteId: site.id } })
        : await tx.siteSectionGroup.findFirst({ where: { id: item.id, siteId: site.id } });
    if (!found) throw new NotFoundError(`${item.type} ${item.id} not found`);
    const parentId = "sectionGroupId" in found ? found.sectionGroupId : found.parentGroupId;
    await writePositions(tx, placeAmong(await structureSiblings(tx, site.id, parentId), found.id, placement));
    return item.type === "site-section"
      ? tx.siteSection.findUniqueOrThrow({ where: { id: found.id } })
      : tx.siteSectionGroup.findUniqueOrThrow({ where: { id: found.id } });
  });
}
