import { objectOrganizationId, readsOrganization, requireViewer, viewerMembershipLoader } from "../../auth/access.ts";
import { authorizeInOrganization } from "../../auth/authorize.ts";
import type { OrganizationPolicy } from "../../auth/policy.ts";
import { checkedRead, type Readable } from "../../auth/readable.ts";
import { hashToken } from "../../auth/tokens.ts";
import type { Site, Space } from "../../db/generated/client.ts";
import { loadedOrNull, NotFoundError, UnauthenticatedError } from "../../lib/errors.ts";
import { decryptSecret } from "../../platform/secrets.ts";
import type { RequestContext } from "../../request/context.ts";
import { defineSettled, loadedByKey } from "../../request/loaders.ts";
import {
  type SpaceSummary,
  spaceByIdLoader,
  visibleSpaceLoader,
  visibleSpaceSummaryLoader,
} from "../space/space.public.ts";
import { siteByIdLoader } from "./site.loaders.ts";
import { canReadSite, publishedSiteEntry, publishedSiteShowsSpace } from "./site.policy.ts";
import type { SiteSpaceRow } from "./site-space.loaders.ts";

/*
 * The reads behind a site's policy (site.policy.ts): organization roles for management, and for published content
 * the site's visibility (share-link keys, visitor JWTs). Every site-structure service asks here.
 */

/** Sites for `node`/`nodes`: null for sites of organizations the viewer is not a member of. */
export async function loadVisibleSites(ctx: RequestContext, ids: readonly string[]): Promise<(Site | null)[]> {
  requireViewer(ctx);
  const sites = await siteByIdLoader(ctx).loadMany(ids);
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
  const site = await siteByIdLoader(ctx).load(siteId);
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
  const own = async () => (await siteByIdLoader(ctx).load(siteId))?.organizationId;
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
  const opened = sitesOpenedAsPublished.get(ctx) ?? new Set<string>();
  sitesOpenedAsPublished.set(ctx, opened.add(access.site.id));
  return access;
}

/**
 * Per request, the sites opened as published content: their site spaces show their spaces to this caller, as the
 * published site does to every visitor (management reads show only the spaces the caller may read).
 */
const sitesOpenedAsPublished = new WeakMap<RequestContext, Set<string>>();

function openedAsPublished(ctx: RequestContext, siteId: string): boolean {
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

/**
 * Spaces settled ahead of site spaces' `space` field (`settleSiteSpaceSpaces`), by space id: as published content
 * shows them, and as the viewer may read them (null: may not). By space rather than by site space: a nested read's
 * 2000 site spaces show 200 spaces.
 */
const settledPublishedSpaces = defineSettled<string, Readable<Space>>();
const settledVisibleSpaces = defineSettled<string, Readable<Space> | null>();
const settledVisibleSummaries = defineSettled<string, Readable<SpaceSummary> | null>();

/**
 * How a list settles its site spaces' spaces: not at all, as summaries (when its items select only
 * `spaceSummaryFields` of them), or in full.
 */
export type SpaceSettling = "none" | "summaries" | "full";

/**
 * The space a site space shows, in nested reads. Through published content (a site opened with
 * `requirePublishedSiteAccess` in this request) it is shown, as the published site shows it to every visitor;
 * management reads show it only to a caller who may read the space (the site's readers do not all; null otherwise).
 * A space settled with its list comes back as it is, without a promise.
 */
export function siteSpaceSpace(
  ctx: RequestContext,
  siteSpace: SiteSpaceRow,
): Promise<Readable<Space> | null> | Readable<Space> | null {
  if (openedAsPublished(ctx, siteSpace.siteId)) {
    return settledPublishedSpaces.get(ctx, siteSpace.spaceId) ?? loadPublishedSpace(ctx, siteSpace);
  }
  if (!ctx.viewer) return null;
  const full = settledVisibleSpaces.get(ctx, siteSpace.spaceId);
  // A summary is settled only for lists whose items select nothing of the space a summary lacks.
  const settled =
    full !== undefined ? full : (settledVisibleSummaries.get(ctx, siteSpace.spaceId) as Readable<Space> | null);
  return settled !== undefined ? settled : visibleSpaceLoader(ctx).load(siteSpace.spaceId);
}

async function loadPublishedSpace(ctx: RequestContext, siteSpace: SiteSpaceRow): Promise<Readable<Space>> {
  // Reads only reach site spaces of live spaces, so the space is there.
  const space = await spaceByIdLoader(ctx).load(siteSpace.spaceId);
  if (!space) throw new Error(`Space ${siteSpace.spaceId} of site space ${siteSpace.id} is missing`);
  return checkedRead(space, publishedSiteShowsSpace(openedAsPublished(ctx, siteSpace.siteId), space));
}

/**
 * Loads the spaces of a list of site spaces (once per distinct space, batched with the request's other lists) and
 * keeps them by id, so that `siteSpaceSpace` answers each row at once: a nested read's 2000 site spaces otherwise
 * cost a promise each and the executor's slower path for asynchronous fields. Spaces that fail to load are left for
 * `siteSpaceSpace` to load, and fail, on its own.
 */
export async function settleSiteSpaceSpaces(
  ctx: RequestContext,
  siteSpaces: readonly SiteSpaceRow[],
  settling: Exclude<SpaceSettling, "none">,
): Promise<void> {
  const opened = sitesOpenedAsPublished.get(ctx);
  const published = new Set<string>();
  const visible = new Set<string>();
  for (const siteSpace of siteSpaces) {
    if (opened?.has(siteSpace.siteId)) published.add(siteSpace.spaceId);
    else if (ctx.viewer) visible.add(siteSpace.spaceId);
  }
  const publishedIds = [...published];
  const visibleIds = [...visible];
  const visibleLoader = settling === "summaries" ? visibleSpaceSummaryLoader : visibleSpaceLoader;
  const settledVisible = settling === "summaries" ? settledVisibleSummaries : settledVisibleSpaces;
  const [publishedSpaces, visibleSpaces] = await Promise.all([
    publishedIds.length ? spaceByIdLoader(ctx).loadMany(publishedIds) : [],
    visibleIds.length ? visibleLoader(ctx).loadMany(visibleIds) : [],
  ]);
  for (const [id, space] of loadedByKey(publishedIds, publishedSpaces)) {
    if (space) settledPublishedSpaces.set(ctx, id, checkedRead(space, publishedSiteShowsSpace(true, space)));
  }
  for (const [id, space] of loadedByKey(visibleIds, visibleSpaces)) settledVisible.set(ctx, id, space);
}
