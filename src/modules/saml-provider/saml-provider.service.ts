import { X509Certificate } from "node:crypto";
import { z } from "zod";
import { objectOrganizationId } from "../../auth/access.ts";
import { authorizeInOrganization } from "../../auth/authorize.ts";
import type { SamlProvider } from "../../db/generated/client.ts";
import { InvalidInputError, NotFoundError, nullWhereRefused } from "../../lib/errors.ts";
import { parseInput, roleSchema } from "../../lib/validation.ts";
import { type PageArgs, paginate, type SortKey } from "../../paging/pagination.ts";
import { newId } from "../../platform/ids.ts";
import type { RequestContext } from "../../request/context.ts";
import { organizationExists } from "../organization/organization.public.ts";
import { organizationTeam } from "../team/team.public.ts";
import { canManageSso } from "./saml-provider.policy.ts";

/** A certificate in PEM that node's X.509 parser reads; anything else is refused at write time. */
const certificateSchema = z
  .string()
  .max(10000)
  .refine((value) => {
    if (!/-----BEGIN CERTIFICATE-----[\s\S]+-----END CERTIFICATE-----/.test(value)) return false;
    try {
      new X509Certificate(value);
      return true;
    } catch {
      return false;
    }
  }, "must be a PEM X.509 certificate (-----BEGIN CERTIFICATE----- ...)");

const providerFields = {
  label: z.string().trim().min(1).max(30).describe("The name members see on the sign-in page, trimmed"),
  entityID: z.string().trim().min(1).max(1024).describe("The identity provider's entity id, trimmed"),
  certificate: certificateSchema.describe(
    "The identity provider's signing certificate, PEM X.509 (-----BEGIN CERTIFICATE----- ...)",
  ),
  ssoURL: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .describe("The identity provider's login URL (http or https)"),
  defaultTeam: z
    .string()
    .min(1)
    .nullable()
    .describe("Id of a team of the organization that new SSO members join; null: none"),
  defaultRole: roleSchema.nullable().describe("The organization role of new SSO members; null makes them guests"),
};

export const createProviderSchema = z.strictObject({
  label: providerFields.label,
  entityID: providerFields.entityID.optional(),
  certificate: providerFields.certificate.optional(),
  ssoURL: providerFields.ssoURL.optional(),
  defaultTeam: providerFields.defaultTeam.optional(),
  defaultRole: providerFields.defaultRole.optional(),
});

export const updateProviderSchema = createProviderSchema.partial();

/** A provider becomes `active` once it knows the identity provider's entity id, login URL and certificate. */
export function providerStatus(provider: SamlProvider): "active" | "pending" {
  return provider.entityID && provider.ssoURL && provider.certificate ? "active" : "pending";
}

/** The endpoints of our side of the SAML exchange, as the identity provider is configured with them. */
export function serviceEndpoints(ctx: RequestContext, provider: SamlProvider) {
  const base = `${ctx.config.publicUrl}/sso/saml/${provider.id}`;
  return { entityID: base, acsURL: `${base}/acs`, startURL: `${base}/start` };
}

export function providerLocation(ctx: RequestContext, provider: SamlProvider): string {
  return `${ctx.config.publicUrl}/v1/orgs/${provider.organizationId}/saml/${provider.id}`;
}

async function checkDefaultTeam(ctx: RequestContext, organizationId: string, teamId: string | null | undefined) {
  if (!teamId) return;
  const team = await ctx.prisma.team.findFirst({ where: { id: teamId, organizationId }, select: { id: true } });
  if (!team) throw new InvalidInputError(`defaultTeam: ${teamId} is not a team of this organization`);
}

type ProviderInput = z.infer<typeof updateProviderSchema>;

function providerColumns(data: ProviderInput) {
  return {
    label: data.label,
    entityID: data.entityID,
    certificate: data.certificate,
    ssoURL: data.ssoURL,
    defaultTeamId: data.defaultTeam,
    defaultRole: data.defaultRole,
  };
}

/** An organization's SAML providers, oldest first. */
export const samlProviderOrder: SortKey<SamlProvider>[] = [
  { field: "createdAt", direction: "asc" },
  { field: "id", direction: "asc" },
];

export async function listProviders(ctx: RequestContext, organizationId: string, page: PageArgs) {
  await authorizeInOrganization(ctx, organizationId, canManageSso);
  return paginate<SamlProvider>(page, {
    sort: samlProviderOrder,
    where: { organizationId },
    model: ctx.prisma.samlProvider,
  });
}

export async function getProvider(ctx: RequestContext, organizationId: string, providerId: string) {
  await authorizeInOrganization(ctx, organizationId, canManageSso);
  const provider = await ctx.prisma.samlProvider.findFirst({ where: { id: providerId, organizationId } });
  if (!provider) throw new NotFoundError(`SAML provider ${providerId} not found`);
  return provider;
}

export async function createProvider(ctx: RequestContext, organizationId: string, input: unknown) {
  await authorizeInOrganization(ctx, organizationId, canManageSso);
  const data = parseInput(createProviderSchema, input);
  await checkDefaultTeam(ctx, organizationId, data.defaultTeam);
  return ctx.prisma.samlProvider.create({
    data: {
      ...providerColumns(data),
      id: newId("SamlProvider"),
      organizationId,
      label: data.label,
      createdAt: ctx.clock.now(),
    },
  });
}

/**
 * The team new SSO members of a provider join (null: none). The provider reached the caller through
 * `canManageSso` in its organization, so the check here is that decision again on the membership the request has
 * already read: no statement besides the team's.
 */
export async function providerDefaultTeam(ctx: RequestContext, provider: SamlProvider) {
  if (!provider.defaultTeamId) return null;
  const admin = await authorizeInOrganization(ctx, provider.organizationId, canManageSso);
  return organizationTeam(ctx, admin, provider.defaultTeamId);
}

/** The organization a provider mutation acts in: the one given, or else the provider's own. */
function providerOrganizationId(ctx: RequestContext, organizationId: string | null | undefined, providerId: string) {
  const own = async () =>
    (await ctx.prisma.samlProvider.findUnique({ where: { id: providerId }, select: { organizationId: true } }))
      ?.organizationId;
  return objectOrganizationId(ctx, organizationId, own, `SAML provider ${providerId} not found`);
}

export async function updateProvider(
  ctx: RequestContext,
  givenOrganizationId: string | null | undefined,
  providerId: string,
  input: unknown,
) {
  const organizationId = await providerOrganizationId(ctx, givenOrganizationId, providerId);
  const provider = await getProvider(ctx, organizationId, providerId);
  const data = parseInput(updateProviderSchema, input);
  await checkDefaultTeam(ctx, organizationId, data.defaultTeam);
  return ctx.prisma.samlProvider.update({ where: { id: provider.id }, data: providerColumns(data) });
}

export async function deleteProvider(
  ctx: RequestContext,
  givenOrganizationId: string | null | undefined,
  providerId: string,
) {
  const organizationId = await providerOrganizationId(ctx, givenOrganizationId, providerId);
  await authorizeInOrganization(ctx, organizationId, canManageSso);
  await ctx.prisma.samlProvider.deleteMany({ where: { id: providerId, organizationId } });
}

/**
 * The organization's login options, for a sign-in page: open without a token (a person choosing how to sign in has
 * none yet). Only active providers are offered.
 */
export async function listLoginOptions(ctx: RequestContext, organizationId: string) {
  if (!(await organizationExists(ctx, organizationId))) {
    throw new NotFoundError(`Organization ${organizationId} not found`);
  }
  const providers = await ctx.prisma.samlProvider.findMany({
    where: { organizationId },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return providers
    .filter((provider) => providerStatus(provider) === "active")
    .map((provider) => ({
      id: provider.id,
      label: provider.label,
      startURL: serviceEndpoints(ctx, provider).startURL,
    }));
}

/** SAML providers for `node`/`nodes`: where `GET /orgs/{organizationId}/saml/{samlProviderId}` answers (admins). */
export async function loadVisibleProviders(ctx: RequestContext, ids: readonly string[]) {
  const rows = await ctx.prisma.samlProvider.findMany({ where: { id: { in: [...ids] } } });
  return nullWhereRefused(ids, rows, (row) => getProvider(ctx, row.organizationId, row.id));
}
