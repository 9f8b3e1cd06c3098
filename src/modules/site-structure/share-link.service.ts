import { z } from "zod";
import { hashToken } from "../../auth/tokens.ts";
import type { Prisma, ShareLink } from "../../db/generated/client.ts";
import { NotFoundError } from "../../lib/errors.ts";
import { parseInput } from "../../lib/validation.ts";
import type { PageArgs, SortKey } from "../../paging/pagination.ts";
import { mapNodes, paginate } from "../../paging/pagination.ts";
import { newId, randomBase62 } from "../../platform/ids.ts";
import { decryptSecret, encryptSecret } from "../../platform/secrets.ts";
import type { RequestContext } from "../../request/context.ts";
import { requireSite, siteOrganizationId } from "./site.access.ts";
import { canAdministerSite } from "./site.policy.ts";
import { requireItemSite } from "./structure-parents.service.ts";
import { sitePublishedBaseUrl } from "./urls.ts";

/** Share-link keys: 40 base62 characters (~238 bits), unguessable. */
const shareKeyLength = 40;

const shareLinkNameSchema = z.string().trim().max(50);

/** The published URL a share link hands out: the site's published content, opened by the key. */
export function shareLinkPublishedUrl(ctx: RequestContext, link: ShareLink & { organizationId: string }): string {
  return `${sitePublishedBaseUrl(ctx, link.organizationId, link.siteId)}?shareKey=${encodeURIComponent(decryptSecret(ctx.config.secretsKey, link.keyEncrypted))}`;
}

export type ShareLinkWithOrganization = ShareLink & { organizationId: string };

function withOrganization(organizationId: string, link: ShareLink): ShareLinkWithOrganization {
  return { ...link, organizationId };
}

export async function listShareLinks(
  ctx: RequestContext,
  organizationId: string,
  siteId: string,
  page: PageArgs,
  filters: { search?: string | null },
) {
  await requireSite(ctx, organizationId, siteId, canAdministerSite);
  const where: Prisma.ShareLinkWhereInput = { siteId };
  if (filters.search) {
    where.OR = [{ name: { contains: filters.search, mode: "insensitive" } }, { keyHash: hashToken(filters.search) }];
  }
  const result = await paginate<ShareLink>(page, {
    sort: shareLinkOrder,
    where,
    model: ctx.prisma.shareLink,
  });
  return mapNodes(result, (link) => withOrganization(organizationId, link));
}

export const createShareLinkSchema = z.strictObject({
  name: shareLinkNameSchema.describe("A name for the link (who it is for), trimmed; may be empty"),
});

/** A site's share links, oldest first. */
export const shareLinkOrder: SortKey<ShareLink>[] = [
  { field: "createdAt", direction: "asc" },
  { field: "id", direction: "asc" },
];

export async function createShareLink(
  ctx: RequestContext,
  organizationId: string | null | undefined,
  siteId: string,
  input: unknown,
) {
  const site = await requireSite(ctx, await siteOrganizationId(ctx, organizationId, siteId), siteId, canAdministerSite);
  const data = parseInput(createShareLinkSchema, input);
  // Like API tokens, the key is found by its hash; unlike them it is shown again (in `urls.published`), so an
  // encrypted copy is kept too. Neither reveals it to someone who reads the database without SECRETS_KEY.
  const key = randomBase62(shareKeyLength);
  const link = await ctx.prisma.shareLink.create({
    data: {
      id: newId("ShareLink"),
      siteId,
      name: data.name,
      keyHash: hashToken(key),
      keyEncrypted: encryptSecret(ctx.config.secretsKey, key),
      createdAt: ctx.clock.now(),
    },
  });
  return withOrganization(site.organizationId, link);
}

export const updateShareLinkSchema = z
  .strictObject({
    name: shareLinkNameSchema.optional().describe("A name for the link, trimmed"),
    active: z.boolean().optional().describe("false revokes the link: its key opens nothing any more; true restores it"),
  })
  .refine((data) => data.name !== undefined || data.active !== undefined, "Give name or active");

export async function updateShareLink(
  ctx: RequestContext,
  organizationId: string | null | undefined,
  siteId: string | null | undefined,
  shareLinkId: string,
  input: unknown,
) {
  const site = await requireItemSite(ctx, { organizationId, siteId }, { type: "ShareLink", id: shareLinkId });
  const data = parseInput(updateShareLinkSchema, input);
  const { count } = await ctx.prisma.shareLink.updateMany({ where: { id: shareLinkId, siteId: site.id }, data });
  if (count === 0) throw new NotFoundError(`Share link ${shareLinkId} not found`);
  const link = await ctx.prisma.shareLink.findUniqueOrThrow({ where: { id: shareLinkId } });
  return withOrganization(site.organizationId, link);
}

export async function deleteShareLink(
  ctx: RequestContext,
  organizationId: string | null | undefined,
  siteId: string | null | undefined,
  id: string,
) {
  const site = await requireItemSite(ctx, { organizationId, siteId }, { type: "ShareLink", id });
  await ctx.prisma.shareLink.deleteMany({ where: { id, siteId: site.id } });
}
