import { z } from "zod";
import { authorizeInOrganization } from "../../auth/authorize.ts";
import type { Database } from "../../db/database.ts";
import type { Prisma, Site } from "../../db/generated/client.ts";
import { InvalidInputError } from "../../lib/errors.ts";
import { parseInput } from "../../lib/validation.ts";
import {
  containsSchema,
  type FilterRules,
  filterMatcher,
  filterWhere,
  isFiltering,
  type ListArgs,
  type ListOrder,
  parseFilter,
  sortFor,
  timeRangeRules,
  timeRangeSchemas,
} from "../../paging/list-order.ts";
import { pageFromRows } from "../../paging/memory-pagination.ts";
import { isFirstPage, type PageArgs, paginate } from "../../paging/pagination.ts";
import { newId, randomBase62 } from "../../platform/ids.ts";
import { encryptSecret } from "../../platform/secrets.ts";
import type { RequestContext } from "../../request/context.ts";
import { type AdaptiveJsonSchema, templateConditions, validateAdaptiveSchema } from "./adaptive-schema.ts";
import { lockSiteRow } from "./ordering.ts";
import { requireSite, siteOrganizationId, visitorAuthKeyOf } from "./site.access.ts";
import { canAdministerSite, canCreateSites, canReadSite } from "./site.policy.ts";
import { insertSiteSpace } from "./site-space.service.ts";
import { structureReads } from "./structure-reads.ts";
import { siteOrder } from "./structure-sql.ts";

export const siteTypes = ["basic", "premium", "ultimate", "sponsored", "legacy-basic", "legacy-premium"] as const;
const siteVisibilities = ["public", "unlisted", "share-link", "visitor-auth"] as const;

const siteTypeSchema = z.enum(siteTypes);
const siteVisibilitySchema = z.enum(siteVisibilities);
const siteTitleSchema = z.string().trim().min(2).max(128);
// The public spec's SiteProxyOrigin: a host, then one or more path segments (`company.com/docs`).
const siteProxySchema = z
  .string()
  .max(512)
  .regex(
    /^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$/,
    "must be a host followed by path segments, e.g. company.com/docs",
  );

/** Visitor-auth keys: 43 base62 characters (~256 bits), the HS256 secret of the site's visitor JWTs. */
const visitorAuthKeyLength = 43;

export interface SiteFilters {
  /** A space id: only sites that show this space. */
  space?: string | null;
  title?: string | null;
  published?: boolean | null;
}

/** The sorts of `sites(orderBy:)`. */
export const siteListOrder: ListOrder<Site> = {
  fields: { CREATED_AT: "createdAt", UPDATED_AT: "updatedAt", TITLE: "title" },
  tiebreak: "id",
};

export const siteFilterSchema = z.strictObject({
  titleContains: containsSchema.nullish().describe("Only sites whose title contains this text, ignoring case"),
  published: z.boolean().nullish().describe("Only published (true) or unpublished (false) sites"),
  type: siteTypeSchema.nullish().describe("Only sites of this type"),
  visibility: siteVisibilitySchema.nullish().describe("Only sites with this visibility"),
  ...timeRangeSchemas("sites"),
});

const siteFilterRules: FilterRules<Site, z.infer<typeof siteFilterSchema>> = {
  titleContains: { contains: "title" },
  published: { equals: "published" },
  type: { equals: "type" },
  visibility: { equals: "visibility" },
  ...timeRangeRules,
};

export async function listSites(
  ctx: RequestContext,
  organizationId: string,
  page: PageArgs,
  filters: SiteFilters,
  list: ListArgs = {},
) {
  await authorizeInOrganization(ctx, organizationId, canReadSite);
  const sort = sortFor(siteListOrder, list.orderBy, siteOrder);
  const filter = parseFilter(siteFilterSchema, list.filter);
  const filtered = Object.values(filters).some((value) => value !== null && value !== undefined);
  if (!filtered && isFirstPage(page)) {
    // The loader holds every site of the organization: the filter is applied to them, no statement added.
    const sites = await structureReads(ctx).sitesOfOrganization(sort).load(organizationId);
    return pageFromRows(page, sort, isFiltering(filter) ? sites.filter(filterMatcher(siteFilterRules, filter)) : sites);
  }
  const where: Prisma.SiteWhereInput = { organizationId, AND: filterWhere(siteFilterRules, filter) };
  if (filters.title) where.title = { contains: filters.title, mode: "insensitive" };
  if (filters.published !== null && filters.published !== undefined) where.published = filters.published;
  if (filters.space) where.siteSpaces = { some: { spaceId: filters.space, space: { deletedAt: null } } };
  return paginate<Site>(page, { sort, where, model: ctx.prisma.site });
}

export function getSite(ctx: RequestContext, organizationId: string, siteId: string): Promise<Site> {
  return requireSite(ctx, organizationId, siteId, canReadSite);
}

export const createSiteSchema = z.strictObject({
  type: siteTypeSchema.optional().describe("The site's plan type; omitted: basic"),
  title: siteTitleSchema.optional().describe('The site\'s title, trimmed; omitted: "Untitled site"'),
  visibility: siteVisibilitySchema.optional().describe("Who may read the published site; omitted: public (anyone)"),
  spaces: z
    .array(z.string().min(1))
    .max(100)
    .optional()
    .describe("Ids of spaces to add to the site as site spaces, in order (duplicates once)"),
});

/** Creates a site (organization `create` role) and adds the given spaces to it, all in one transaction. */
export async function createSite(ctx: RequestContext, organizationId: string, input: unknown): Promise<Site> {
  await authorizeInOrganization(ctx, organizationId, canCreateSites);
  const data = parseInput(createSiteSchema, input);
  const spaceIds = [...new Set(data.spaces ?? [])];
  const now = ctx.clock.now();
  return ctx.prisma.$transaction(async (tx) => {
    const site = await tx.site.create({
      data: {
        id: newId("Site"),
        organizationId,
        title: data.title ?? "Untitled site",
        type: data.type ?? "basic",
        visibility: data.visibility ?? "public",
        visitorAuthKeyEncrypted: encryptSecret(ctx.config.secretsKey, randomBase62(visitorAuthKeyLength)),
        createdAt: now,
      },
    });
    for (const spaceId of spaceIds) await insertSiteSpace(tx, site, { spaceId }, now);
    return tx.site.findUniqueOrThrow({ where: { id: site.id } });
  });
}

export const siteAdaptiveContentSchema = z.strictObject({
  enabled: z.boolean().describe("Whether the site adapts its content to visitor claims"),
});

export const updateSiteSchema = z.strictObject({
  title: siteTitleSchema.optional().describe("The site's title, trimmed"),
  visibility: siteVisibilitySchema.optional().describe("Who may read the published site"),
  basename: z.string().trim().min(1).max(100).optional().describe("The path the site is served under on its host"),
  adaptiveContent: siteAdaptiveContentSchema.optional().describe("Adaptive content settings"),
  agentsContext: z
    .enum(["excluded", "included"])
    .optional()
    .describe("Whether the site's content is offered to AI agents as context"),
  defaultSiteSpace: z
    .string()
    .min(1)
    .optional()
    .describe(
      "Id of the site space visitors land on: one at the site root, or in the default section when the site has sections",
    ),
  defaultSiteSection: z.string().min(1).optional().describe("Id of the section visitors land on: one of this site's"),
  proxy: siteProxySchema
    .nullable()
    .optional()
    .describe("Host and path to serve the site under, e.g. company.com/docs; null removes the proxy"),
});

/** Changes a site's settings (organization admins); default site space and section must belong to the site. */
export async function updateSite(
  ctx: RequestContext,
  organizationId: string | null | undefined,
  siteId: string,
  input: unknown,
) {
  const site = await requireSite(ctx, await siteOrganizationId(ctx, organizationId, siteId), siteId, canAdministerSite);
  const data = parseInput(updateSiteSchema, input);
  return ctx.prisma.$transaction(async (tx) => {
    await lockSiteRow(tx, siteId);
    const update: Prisma.SiteUncheckedUpdateInput = {
      title: data.title,
      visibility: data.visibility,
      basename: data.basename,
      agentsContext: data.agentsContext,
      adaptiveContentEnabled: data.adaptiveContent?.enabled,
      proxy: data.proxy,
    };
    if (data.defaultSiteSection) {
      const section = await tx.siteSection.findFirst({ where: { id: data.defaultSiteSection, siteId } });
      if (!section)
        throw new InvalidInputError(`defaultSiteSection: no section ${data.defaultSiteSection} on this site`);
      update.defaultSectionId = section.id;
    }
    if (data.defaultSiteSpace) {
      const defaultSectionId = (update.defaultSectionId as string | undefined) ?? site.defaultSectionId;
      // With sections, the default site space is the default section's; without, the root's.
      const siteSpace = await tx.siteSpace.findFirst({
        where: { id: data.defaultSiteSpace, siteId, sectionId: defaultSectionId, space: { deletedAt: null } },
      });
      if (!siteSpace) {
        throw new InvalidInputError(
          `defaultSiteSpace: ${data.defaultSiteSpace} is not a site space ${defaultSectionId ? "of the default section" : "at the root"} of this site`,
        );
      }
      if (defaultSectionId) {
        await tx.siteSection.update({ where: { id: defaultSectionId }, data: { defaultSiteSpaceId: siteSpace.id } });
      } else update.defaultSiteSpaceId = siteSpace.id;
    }
    return tx.site.update({ where: { id: siteId }, data: update });
  });
}

/** Deletes a site with its sections, site spaces and share links (cascade); a missing site succeeds. */
export async function deleteSite(
  ctx: RequestContext,
  givenOrganizationId: string | null | undefined,
  siteId: string,
): Promise<void> {
  const organizationId = await siteOrganizationId(ctx, givenOrganizationId, siteId);
  await authorizeInOrganization(ctx, organizationId, canAdministerSite);
  await ctx.prisma.site.deleteMany({ where: { id: siteId, organizationId } });
}

export async function setSitePublished(
  ctx: RequestContext,
  organizationId: string | null | undefined,
  siteId: string,
  published: boolean,
): Promise<Site> {
  await requireSite(ctx, await siteOrganizationId(ctx, organizationId, siteId), siteId, canAdministerSite);
  return ctx.prisma.site.update({ where: { id: siteId }, data: { published } });
}

/** The secret that signs visitor JWTs; organization admins only. */
export async function siteVisitorAuthKey(ctx: RequestContext, site: Site): Promise<string | null> {
  await requireSite(ctx, site.organizationId, site.id, canAdministerSite);
  return visitorAuthKeyOf(ctx, site);
}

/**
 * Encrypts the visitor-auth keys that releases before the encryption stored in clear (SQL has no SECRETS_KEY, so a
 * migration cannot), keeping their values: the visitor JWTs that sites' servers sign keep working. Run at start-up;
 * each row is changed only while it still holds its clear key, so servers starting together do not collide.
 * Returns how many it encrypted. The check reads through the hand-written reads: a start with nothing to encrypt
 * leaves Prisma's query engine unloaded (see main.ts).
 */
export async function encryptStoredVisitorAuthKeys(
  { prisma, sql }: Pick<Database, "prisma" | "sql">,
  secretsKey: Buffer,
): Promise<number> {
  if ((await sql.rows(`SELECT 1 FROM "Site" WHERE "visitorAuthKey" IS NOT NULL LIMIT 1`)).length === 0) return 0;
  const stored = await prisma.site.findMany({
    where: { visitorAuthKey: { not: null } },
    select: { id: true, visitorAuthKey: true },
  });
  let encrypted = 0;
  for (const { id, visitorAuthKey } of stored) {
    if (visitorAuthKey === null) continue;
    const { count } = await prisma.site.updateMany({
      where: { id, visitorAuthKey },
      data: { visitorAuthKeyEncrypted: encryptSecret(secretsKey, visitorAuthKey), visitorAuthKey: null },
    });
    encrypted += count;
  }
  return encrypted;
}

export interface SiteAdaptiveSchema {
  jsonSchema: unknown;
  updatedAt: Date;
}

/** The site's visitor schema; null when it was never set. */
export async function getAdaptiveSchema(
  ctx: RequestContext,
  organizationId: string,
  siteId: string,
): Promise<SiteAdaptiveSchema | null> {
  const site = await requireSite(ctx, organizationId, siteId, canReadSite);
  if (site.adaptiveSchema === null || !site.adaptiveSchemaUpdatedAt) return null;
  return { jsonSchema: site.adaptiveSchema, updatedAt: site.adaptiveSchemaUpdatedAt };
}

export const updateAdaptiveSchemaSchema = z.strictObject({
  jsonSchema: z
    .record(z.string(), z.unknown())
    .describe(
      "A draft-07 object schema whose properties are boolean visitor claims (each with a description, at most 100; " +
        "names of up to 64 letters, digits or _), with an optional `unsigned` object of such claims; replaces the " +
        "previous schema",
    ),
});

export async function updateAdaptiveSchema(
  ctx: RequestContext,
  organizationId: string | null | undefined,
  siteId: string,
  input: unknown,
): Promise<SiteAdaptiveSchema> {
  await requireSite(ctx, await siteOrganizationId(ctx, organizationId, siteId), siteId, canAdministerSite);
  const { jsonSchema } = parseInput(updateAdaptiveSchemaSchema, input);
  await validateAdaptiveSchema(jsonSchema);
  const site = await ctx.prisma.site.update({
    where: { id: siteId },
    data: { adaptiveSchema: jsonSchema as Prisma.InputJsonObject, adaptiveSchemaUpdatedAt: ctx.clock.now() },
  });
  return { jsonSchema: site.adaptiveSchema, updatedAt: site.adaptiveSchemaUpdatedAt ?? ctx.clock.now() };
}

export async function listAdaptiveTemplateConditions(ctx: RequestContext, organizationId: string, siteId: string) {
  const site = await requireSite(ctx, organizationId, siteId, canReadSite);
  return templateConditions(site.adaptiveSchema as AdaptiveJsonSchema | null);
}
