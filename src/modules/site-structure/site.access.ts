import { objectOrganizationId, readsOrganization, requireViewer, viewerMembershipLoader } from "../../auth/access.ts";
import { authorizeInOrganization } from "../../auth/authorize.ts";
import type { OrganizationPolicy } from "../../auth/policy.ts";
import { hashToken } from "../../auth/tokens.ts";
import type { Site } from "../../db/generated/client.ts";
import { loadedOrNull, NotFoundError, UnauthenticatedError } from "../../lib/errors.ts";
import { decryptSecret } from "../../platform/secrets.ts";
import type { RequestContext } from "../../request/context.ts";
import { canReadSite, publishedSiteEntry } from "./site.policy.ts";
import { structureReads } from "./structure-reads.ts";

/*
 * The reads behind a site's policy (site.policy.ts): organization roles for management, and for published content
 * the site's visibility (share-link keys, visitor JWTs). Every site-structure service asks here.
 */

/** Sites for `node`/`nodes`: null for sites of organizations the viewer is not a member of. */
export async function loadVisibleSites(ctx: RequestContext, ids: readonly string[]): Promise<(Site | null)[]> {
  requireViewer(ctx);
  const sites = await structureReads(ctx).site.loadMany(ids);
  const found = sites.map(loadedOrNull);
  const memberships = await viewerMembershipLoader(ctx).loadMany(found.map((site) => site?.organizationId ?? ""));
  return found.map((site, index) => (site && readsOrganization(memberships[index]) ? site : null));
}

/**
 * The site `siteId` of organization `organizationId` when `policy` (site.policy.ts) allows the viewer there: 404 for
 * non-members and for sites of other organizations, 403 for too low a role.
 */
export async function requireSite(
  ctx: RequestContext,
  organizationId: string,
  siteId: string,
  policy: OrganizationPolicy,
): Promise<Site> {
  await authorizeInOrganization(ctx, organizationId, policy);
  const site = await structureReads(ctx).site.load(siteId);
  if (!site || site.organizationId !== organizationId) throw new NotFoundError(`Site ${siteId} not found`);
  return site;
}

/**
 * The organization of a site a mutation names by its id: `organizationId` when given (REST paths pass it), else the
 * site's own for its members; anyone else gets `notFound` (the site's, or that of the item that named the site).
 */
export function siteOrganizationId(
  ctx: RequestContext,
  organizationId: string | null | undefined,
  siteId: string,
  notFound = `Site ${siteId} not found`,
): Promise<string> {
  const own = async () => (await structureReads(ctx).site.load(siteId))?.organizationId;
  return objectOrganizationId(ctx, organizationId, own, notFound);
}

/**
 * The site for the structure reads that take a `shareKey` (`listSiteSections`, `listSiteSpaces`). With a key, the
 * published-content rule decides (members, or an active key of a published `share-link` site, ...); without one
 * they are management reads: a token and organization `read` (401 / 404 / 403 otherwise).
 */
export async function readableSite(
  ctx: RequestContext,
  organizationId: string,
  siteId: string,
  shareKey: string | null | undefined,
): Promise<Site> {
  if (shareKey) return (await requirePublishedSiteAccess(ctx, organizationId, siteId, { shareKey })).site;
  return requireSite(ctx, organizationId, siteId, canReadSite);
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
  // Its site spaces now show their spaces to this caller, as the published site does to every visitor.
  structureReads(ctx).openedAsPublished.add(access.site.id);
  return access;
}

async function publishedSiteAccess(
  ctx: RequestContext,
  organizationId: string,
  siteId: string,
  options: { shareKey?: string | null },
): Promise<PublishedSiteAccess> {
  const site = await structureReads(ctx).site.load(siteId);
  const notFound = new NotFoundError(`Site ${siteId} not found`);
  if (!site || site.organizationId !== organizationId) throw notFound;
  if (ctx.viewer && readsOrganization(await viewerMembershipLoader(ctx).load(organizationId))) {
    return { site, visitorClaims: (await visitorClaims(ctx, site)) ?? {} };
  }
  switch (publishedSiteEntry(site)) {
    case "open":
      return { site, visitorClaims: {} };
    case "share-key":
      if (options.shareKey && (await shareKeyOpensSite(ctx, site.id, options.shareKey))) {
        return { site, visitorClaims: {} };
      }
      throw notFound;
    case "visitor-token": {
      const claims = await visitorClaims(ctx, site);
      if (!claims) throw new UnauthenticatedError("A valid visitor token of this site is required (Bearer JWT)");
      return { site, visitorClaims: claims };
    }
    default:
      throw notFound;
  }
}

/**
 * True when `shareKey` opens the site: the site's visibility is `share-link` and the key belongs to an active link
 * of that site. Inactive, foreign and wrong keys open nothing.
 */
async function shareKeyOpensSite(ctx: RequestContext, siteId: string, shareKey: string): Promise<boolean> {
  if (!shareKey) return false;
  const link = await ctx.prisma.shareLink.findUnique({
    where: { keyHash: hashToken(shareKey) },
    include: { site: true },
  });
  return Boolean(link?.active && link.siteId === siteId && link.site.visibility === "share-link");
}

/** The site's visitor-auth key in clear; null for a row still in clear, which start-up has not encrypted yet. */
export function visitorAuthKeyOf(ctx: RequestContext, site: Site): string | null {
  return site.visitorAuthKeyEncrypted === null
    ? null
    : decryptSecret(ctx.config.secretsKey, site.visitorAuthKeyEncrypted);
}
