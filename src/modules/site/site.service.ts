import { z } from "zod";
import {
  readsOrganization,
  requireOrganizationRole,
  requireViewer,
  viewerMembershipLoader,
} from "../../auth/access.ts";
import { hasRole } from "../../auth/roles.ts";
import type { RequestContext } from "../../context.ts";
import type { Prisma, PrismaClient, Role, Site } from "../../db/generated/client.ts";
import { InvalidInputError, NotFoundError, UnauthenticatedError } from "../../errors.ts";
import { newId, randomBase62 } from "../../ids.ts";
import { isFirstPage, type PageArgs, pageFromRows, paginate } from "../../pagination.ts";
import { decryptSecret, encryptSecret } from "../../secrets.ts";
import { parseInput } from "../../validation.ts";
import { shareKeyOpensSite } from "../share-link/share-link.service.ts";
import { insertSiteSpace } from "../site-space/site-space.service.ts";
import { type AdaptiveJsonSchema, templateConditions, validateAdaptiveSchema } from "./adaptive-schema.ts";
import { siteByIdLoader, siteOrder, sitesByOrganizationLoader } from "./site.loaders.ts";

export const siteTypes = ["basic", "premium", "ultimate", "sponsored", "legacy-basic", "legacy-premium"] as const;
export const siteVisibilities = ["public", "unlisted", "share-link", "visitor-auth"] as const;

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

/** Sites for `node`/`nodes`: null for sites of organizations the viewer is not a member of. */
export async function loadVisibleSites(ctx: RequestContext, ids: readonly string[]): Promise<(Site | null)[]> {
  requireViewer(ctx);
  const sites = await siteByIdLoader(ctx).loadMany(ids);
  const found = sites.map((site) => (site && !(site instanceof Error) ? site : null));
  const memberships = await viewerMembershipLoader(ctx).loadMany(found.map((site) => site?.organizationId ?? ""));
  return found.map((site, index) => (site && readsOrganization(memberships[index]) ? site : null));
}

/**
 * The site `siteId` of organization `organizationId` when the viewer has at least `least` there: 404 for
 * non-members and for sites of other organizations, 403 for too low a role.
 */
export async function requireSite(
  ctx: RequestContext,
  organizationId: string,
  siteId: string,
  least: Role = "read",
): Promise<Site> {
  await requireOrganizationRole(ctx, organizationId, least);
  const site = await siteByIdLoader(ctx).load(siteId);
  if (!site || site.organizationId !== organizationId) throw new NotFoundError(`Site ${siteId} not found`);
  return site;
}

/** Where the site's published content is read (this service renders no HTML: its published form is the API's). */
export function sitePublishedBaseUrl(ctx: RequestContext, organizationId: string, siteId: string): string {
  return `${ctx.config.publicUrl}/v1/orgs/${organizationId}/sites/${siteId}/published`;
}

export function siteUrls(ctx: RequestContext, site: Site) {
  return {
    location: `${ctx.config.publicUrl}/v1/orgs/${site.organizationId}/sites/${site.id}`,
    app: `${ctx.config.publicUrl}/graphql`,
    published: site.published ? sitePublishedBaseUrl(ctx, site.organizationId, site.id) : null,
  };
}

export interface SiteFilters {
  /** A space id: only sites that show this space. */
  space?: string | null;
  title?: string | null;
  published?: boolean | null;
  type?: string | null;
}

export async function listSites(ctx: RequestContext, organizationId: string, page: PageArgs, filters: SiteFilters) {
  await requireOrganizationRole(ctx, organizationId, "read");
  const filtered = Object.values(filters).some((value) => value !== null && value !== undefined);
  if (!filtered && isFirstPage(page)) {
    return pageFromRows(page, siteOrder, await sitesByOrganizationLoader(ctx).load(organizationId));
  }
  const where: Prisma.SiteWhereInput = { organizationId };
  if (filters.title) where.title = { contains: filters.title, mode: "insensitive" };
  if (filters.published !== null && filters.published !== undefined) where.published = filters.published;
  if (filters.type) where.type = parseInput(siteTypeSchema, filters.type);
  if (filters.space) where.siteSpaces = { some: { spaceId: filters.space, space: { deletedAt: null } } };
  return paginate<Site>(page, { sort: siteOrder, where, model: ctx.prisma.site });
}

export function getSite(ctx: RequestContext, organizationId: string, siteId: string): Promise<Site> {
  return requireSite(ctx, organizationId, siteId, "read");
}

const createSiteSchema = z.strictObject({
  type: siteTypeSchema.optional(),
  title: siteTitleSchema.optional(),
  visibility: siteVisibilitySchema.optional(),
  spaces: z.array(z.string().min(1)).max(100).optional(),
});

/** Creates a site (organization `create` role) and adds the given spaces to it, all in one transaction. */
export async function createSite(ctx: RequestContext, organizationId: string, input: unknown): Promise<Site> {
  await requireOrganizationRole(ctx, organizationId, "create");
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

const updateSiteSchema = z.strictObject({
  title: siteTitleSchema.optional(),
  visibility: siteVisibilitySchema.optional(),
  basename: z.string().trim().min(1).max(100).optional(),
  adaptiveContent: z.strictObject({ enabled: z.boolean() }).optional(),
  agentsContext: z.enum(["excluded", "included"]).optional(),
  defaultSiteSpace: z.string().min(1).optional(),
  defaultSiteSection: z.string().min(1).optional(),
  proxy: siteProxySchema.nullable().optional(),
});

/**
 * Locks a site's row for the rest of the transaction. Every transaction that writes a site's structure takes it
 * first, so they run one after another and never lock each other's rows in opposite orders.
 */
export async function lockSiteRow(tx: Prisma.TransactionClient, siteId: string): Promise<void> {
  await tx.$queryRaw`SELECT 1 FROM "Site" WHERE id = ${siteId} FOR NO KEY UPDATE`;
}

/** Changes a site's settings (organization admins); default site space and section must belong to the site. */
export async function updateSite(ctx: RequestContext, organizationId: string, siteId: string, input: unknown) {
  const site = await requireSite(ctx, organizationId, siteId, "admin");
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
export async function deleteSite(ctx: RequestContext, organizationId: string, siteId: string): Promise<void> {
  await requireOrganizationRole(ctx, organizationId, "admin");
  await ctx.prisma.site.deleteMany({ where: { id: siteId, organizationId } });
}

export async function setSitePublished(
  ctx: RequestContext,
  organizationId: string,
  siteId: string,
  published: boolean,
): Promise<Site> {
  await requireSite(ctx, organizationId, siteId, "admin");
  return ctx.prisma.site.update({ where: { id: siteId }, data: { published } });
}

/** The secret that signs visitor JWTs; organization admins only. */
export async function siteVisitorAuthKey(ctx: RequestContext, site: Site): Promise<string | null> {
  await requireSite(ctx, site.organizationId, site.id, "admin");
  return visitorAuthKeyOf(ctx, site);
}

/** The site's visitor-auth key in clear; null for a row still in clear, which start-up has not encrypted yet. */
function visitorAuthKeyOf(ctx: RequestContext, site: Site): string | null {
  return site.visitorAuthKeyEncrypted === null
    ? null
    : decryptSecret(ctx.config.secretsKey, site.visitorAuthKeyEncrypted);
}

/**
 * Encrypts the visitor-auth keys that releases before the encryption stored in clear (SQL has no SECRETS_KEY, so a
 * migration cannot), keeping their values: the visitor JWTs that sites' servers sign keep working. Run at start-up;
 * each row is changed only while it still holds its clear key, so servers starting together do not collide.
 * Returns how many it encrypted.
 */
export async function encryptStoredVisitorAuthKeys(prisma: PrismaClient, secretsKey: Buffer): Promise<number> {
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

/** The site's visitor schema; 404 when it was never set. */
export async function getAdaptiveSchema(ctx: RequestContext, organizationId: string, siteId: string) {
  const site = await requireSite(ctx, organizationId, siteId, "read");
  if (site.adaptiveSchema === null || !site.adaptiveSchemaUpdatedAt) {
    throw new NotFoundError(`Site ${siteId} has no adaptive schema`);
  }
  return { jsonSchema: site.adaptiveSchema, updatedAt: site.adaptiveSchemaUpdatedAt };
}

const updateAdaptiveSchemaSchema = z.strictObject({ jsonSchema: z.record(z.string(), z.unknown()) });

export async function updateAdaptiveSchema(
  ctx: RequestContext,
  organizationId: string,
  siteId: string,
  input: unknown,
): Promise<SiteAdaptiveSchema> {
  await requireSite(ctx, organizationId, siteId, "admin");
  const { jsonSchema } = parseInput(updateAdaptiveSchemaSchema, input);
  await validateAdaptiveSchema(jsonSchema);
  const site = await ctx.prisma.site.update({
    where: { id: siteId },
    data: { adaptiveSchema: jsonSchema as Prisma.InputJsonObject, adaptiveSchemaUpdatedAt: ctx.clock.now() },
  });
  return { jsonSchema: site.adaptiveSchema, updatedAt: site.adaptiveSchemaUpdatedAt ?? ctx.clock.now() };
}

export async function listAdaptiveTemplateConditions(ctx: RequestContext, organizationId: string, siteId: string) {
  const site = await requireSite(ctx, organizationId, siteId, "read");
  return templateConditions(site.adaptiveSchema as AdaptiveJsonSchema | null);
}

/** Who reads a site's published content, and the visitor claims its conditions are evaluated against. */
export interface PublishedSiteAccess {
  site: Site;
  visitorClaims: Record<string, unknown>;
}

/** The claims of the request's visitor JWT when the site's key signed it (HS256) and it has not expired. */
async function visitorClaims(ctx: RequestContext, site: Site): Promise<Record<string, unknown> | null> {
  if (!ctx.bearer) return null;
  const key = visitorAuthKeyOf(ctx, site);
  if (key === null) return null;
  const { errors: joseErrors, jwtVerify } = await import("jose");
  try {
    const { payload } = await jwtVerify(ctx.bearer, new TextEncoder().encode(key), {
      algorithms: ["HS256"],
      currentDate: ctx.clock.now(),
    });
    return payload as Record<string, unknown>;
  } catch (error) {
    if (error instanceof joseErrors.JOSEError) return null;
    throw error;
  }
}

/**
 * Decides whether the caller may read the site's published content (`GET SITE/published` and the reads that take a
 * `shareKey`). Members with `read` always may. Anyone else only while the site is published: `public`/`unlisted`
 * sites are open, `share-link` sites to the key of one of their active links, `visitor-auth` sites to a JWT signed
 * with the site's `visitorAuthKey` (`Authorization: Bearer <jwt>`; missing, invalid or expired: 401). Everything
 * else answers 404, like a missing site. Never requires an API token.
 */
export async function requirePublishedSiteAccess(
  ctx: RequestContext,
  organizationId: string,
  siteId: string,
  options: { shareKey?: string | null } = {},
): Promise<PublishedSiteAccess> {
  const access = await publishedSiteAccess(ctx, organizationId, siteId, options);
  const opened = sitesOpenedAsPublished.get(ctx) ?? new Set<string>();
  sitesOpenedAsPublished.set(ctx, opened.add(access.site.id));
  return access;
}

/**
 * Per request, the sites opened as published content: their site spaces show their spaces to this caller, as the
 * published site does to every visitor (management reads show only the spaces the caller may read).
 */
const sitesOpenedAsPublished = new WeakMap<RequestContext, Set<string>>();

export function openedAsPublished(ctx: RequestContext, siteId: string): boolean {
  return sitesOpenedAsPublished.get(ctx)?.has(siteId) ?? false;
}

async function publishedSiteAccess(
  ctx: RequestContext,
  organizationId: string,
  siteId: string,
  options: { shareKey?: string | null },
): Promise<PublishedSiteAccess> {
  const site = await siteByIdLoader(ctx).load(siteId);
  const notFound = new NotFoundError(`Site ${siteId} not found`);
  if (!site || site.organizationId !== organizationId) throw notFound;
  if (ctx.viewer) {
    const membership = await viewerMembershipLoader(ctx).load(organizationId);
    if (membership && !membership.disabled && hasRole(membership.role, "read")) {
      return { site, visitorClaims: (await visitorClaims(ctx, site)) ?? {} };
    }
  }
  if (!site.published) throw notFound;
  switch (site.visibility) {
    case "public":
    case "unlisted":
      return { site, visitorClaims: {} };
    case "share-link":
      if (options.shareKey && (await shareKeyOpensSite(ctx, site.id, options.shareKey))) {
        return { site, visitorClaims: {} };
      }
      throw notFound;
    case "visitor-auth": {
      const claims = await visitorClaims(ctx, site);
      if (!claims) throw new UnauthenticatedError("A valid visitor token of this site is required (Bearer JWT)");
      return { site, visitorClaims: claims };
    }
    default:
      throw notFound;
  }
}
