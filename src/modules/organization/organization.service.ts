import { z } from "zod";
import { requireMembership, requireViewer, viewerMembershipLoader } from "../../auth/access.ts";
import { authorizeInOrganization } from "../../auth/authorize.ts";
import { organizationMember } from "../../auth/policy.ts";
import { hasRole } from "../../auth/roles.ts";
import type { PrismaExecutor } from "../../db/database.ts";
import type { Organization, Prisma } from "../../db/generated/client.ts";
import { ConflictError, ForbiddenError, InvalidInputError, loadedOrNull, NotFoundError } from "../../lib/errors.ts";
import { documentSchema, mergeRulesSchema, parseInput, roleSchema } from "../../lib/validation.ts";
import {
  containsSchema,
  type FilterRules,
  filterWhere,
  type ListArgs,
  type ListOrder,
  parseFilter,
  sortFor,
  timeRangeRules,
  timeRangeSchemas,
} from "../../paging/list-order.ts";
import { type PageArgs, paginate, type SortKey } from "../../paging/pagination.ts";
import { newId } from "../../platform/ids.ts";
import type { RequestContext } from "../../request/context.ts";
import { getViewerUser } from "../user/user.public.ts";
import { requireMergeRuleMembers } from "./merge-rules.service.ts";
import { organizationByIdLoader, parentOrganization, viewerOwnsTeamLoader } from "./organization.loaders.ts";
import { canReadAgentInstructions, canUpdateOrganization } from "./organization.policy.ts";

const titleSchema = z
  .string()
  .min(2)
  .max(255)
  .regex(/^\S(.*\S)?$/, "must not start or end with spaces");
const emailDomainSchema = z
  .string()
  .max(253)
  .regex(
    /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i,
    "must be a domain name such as example.com",
  )
  .transform((domain) => domain.toLowerCase());
const organizationTypeSchema = z.enum(["business", "community"]);
const useCaseSchema = z.enum([
  "internalDocs",
  "docsSite",
  "audienceControlledSite",
  "productDocs",
  "teamKnowledgeBase",
  "designSystem",
  "openSourceDocs",
  "notes",
  "other",
]);

export const createOrganizationSchema = z.strictObject({
  title: titleSchema.describe("The organization's name, without leading or trailing spaces"),
  emailDomains: z
    .array(emailDomainSchema)
    .max(100)
    .optional()
    .describe("Email domains (such as example.com) whose verified users may join it themselves; omitted: none"),
  type: organizationTypeSchema.optional().describe("The kind of organization; omitted: business"),
  useCase: useCaseSchema.optional().describe("What it documents; omitted: not set"),
});

export const updateOrganizationSchema = z.strictObject({
  title: titleSchema.optional().describe("The organization's name, without leading or trailing spaces"),
  emailDomains: z
    .array(emailDomainSchema)
    .max(100)
    .optional()
    .describe("Email domains (such as example.com) whose verified users may join it themselves; replaces the list"),
  hostname: z
    .string()
    .min(3)
    .max(32)
    .regex(/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/, "must be lowercase letters, digits and inner hyphens")
    .optional()
    .describe("Its unique hostname label: lowercase letters, digits and inner hyphens (a CONFLICT error when taken)"),
  defaultRole: roleSchema
    .nullable()
    .optional()
    .describe("The role of members who join by email domain; null: they join as guests"),
  defaultContent: z
    .strictObject({ type: z.literal("site"), site: z.string().min(1) })
    .nullable()
    .optional()
    .describe('`{ "type": "site", "site": <site id> }` or null to clear it; no site is accepted as the default yet'),
  logo: z.url().max(2048).nullable().optional().describe("URL of its logo; null removes it"),
  sso: z.boolean().optional().describe("Whether members must sign in through the organization's SAML provider"),
  ai: z.boolean().optional().describe("Whether AI features are on"),
  inviteLinks: z.boolean().optional().describe("Whether invite links may be used to join"),
  mergeRules: mergeRulesSchema
    .refine((rules) => rules.type !== "inherit", "an organization cannot inherit merge rules")
    .optional()
    .describe(
      "What change requests need to merge in spaces that inherit: `{type: none}` or " +
        "`{type: rules, rules: [{rule, users?}]}` (not inherit); users named must be members",
    ),
});

/** The organization, if the viewer is a member; 404 otherwise. */
export async function getOrganization(ctx: RequestContext, organizationId: string): Promise<Organization> {
  await requireMembership(ctx, organizationId);
  const organization = await organizationByIdLoader(ctx).load(organizationId);
  if (!organization) throw new NotFoundError(`Organization ${organizationId} not found`);
  return organization;
}

/**
 * The organization of a membership the caller has read (`member.organization`): the organization's read rule
 * applied to the viewer's own membership, which the read that found the row has loaded in this request (no
 * statement). A commenter listed on a public space shows an outsider no more of the organization than its id.
 */
export async function membershipOrganization(
  ctx: RequestContext,
  member: { organizationId: string },
): Promise<Organization> {
  await authorizeInOrganization(ctx, member.organizationId, organizationMember);
  return parentOrganization(ctx, member.organizationId);
}

/**
 * The organization of a row readable outside it (a public space): null unless the viewer is a member, so an
 * outsider reading the row learns nothing more about the organization than its id.
 */
export async function memberParentOrganization(
  ctx: RequestContext,
  organizationId: string,
): Promise<Organization | null> {
  if (!ctx.viewer) return null;
  const [organization] = await loadVisibleOrganizations(ctx, [organizationId]);
  return organization ?? null;
}

/** Organizations by id for `node`/`nodes`: null for any the viewer may not see. */
export async function loadVisibleOrganizations(
  ctx: RequestContext,
  ids: readonly string[],
): Promise<(Organization | null)[]> {
  requireViewer(ctx);
  const memberships = await viewerMembershipLoader(ctx).loadMany(ids);
  const organizations = await organizationByIdLoader(ctx).loadMany(ids);
  return ids.map((_, index) => {
    const membership = loadedOrNull(memberships[index]);
    const organization = loadedOrNull(organizations[index]);
    if (!membership || membership.disabled) return null;
    return organization;
  });
}

/** The sorts of `organizations(orderBy:)`. */
export const organizationListOrder: ListOrder<Organization> = {
  fields: { CREATED_AT: "createdAt", UPDATED_AT: "updatedAt", TITLE: "title" },
  tiebreak: "id",
};

export const organizationFilterSchema = z.strictObject({
  titleContains: containsSchema.nullish().describe("Only organizations whose title contains this text, ignoring case"),
  ...timeRangeSchemas("organizations"),
});

const organizationFilterRules: FilterRules<Organization, z.infer<typeof organizationFilterSchema>> = {
  titleContains: { contains: "title" },
  ...timeRangeRules,
};

/** The caller's organizations, oldest first. */
export const organizationOrder: SortKey<Organization>[] = [
  { field: "createdAt", direction: "asc" },
  { field: "id", direction: "asc" },
];

export function listOrganizationsForViewer(ctx: RequestContext, page: PageArgs, list: ListArgs = {}) {
  const viewer = requireViewer(ctx);
  const filter = parseFilter(organizationFilterSchema, list.filter);
  return paginate<Organization>(page, {
    sort: sortFor(organizationListOrder, list.orderBy, organizationOrder),
    where: {
      members: { some: { userId: viewer.userId, disabled: false } },
      AND: filterWhere(organizationFilterRules, filter),
    },
    model: ctx.prisma.organization,
  });
}

/** Creates an organization; its creator becomes its first admin. */
export async function createOrganization(ctx: RequestContext, input: unknown): Promise<Organization> {
  const viewer = requireViewer(ctx);
  return insertOrganization(ctx.prisma, input, ctx.clock.now(), viewer.userId);
}

/** Validates and inserts an organization, with its first admin when one is given (the CLI creates none). */
export async function insertOrganization(
  prisma: PrismaExecutor,
  input: unknown,
  now: Date,
  adminUserId?: string,
): Promise<Organization> {
  const data = parseInput(createOrganizationSchema, input);
  return prisma.organization.create({
    data: {
      id: newId("Organization"),
      title: data.title,
      emailDomains: data.emailDomains ?? [],
      type: data.type ?? "business",
      useCase: data.useCase ?? null,
      createdAt: now,
      ...(adminUserId ? { members: { create: { userId: adminUserId, role: "admin", joinedAt: now } } } : {}),
    },
  });
}

export async function updateOrganization(
  ctx: RequestContext,
  organizationId: string,
  input: unknown,
): Promise<Organization> {
  await authorizeInOrganization(ctx, organizationId, canUpdateOrganization);
  const data = parseInput(updateOrganizationSchema, input);
  await requireMergeRuleMembers(ctx.prisma, organizationId, data.mergeRules);
  if (data.defaultContent) {
    // Sites arrive with the spaces and sites resources; until then no site can be a valid default.
    throw new InvalidInputError(
      `Invalid default content: site ${data.defaultContent.site} is not a site of this organization`,
    );
  }
  if (data.hostname) {
    const taken = await ctx.prisma.organization.findFirst({
      where: { hostname: data.hostname, id: { not: organizationId } },
      select: { id: true },
    });
    if (taken) throw new ConflictError(`Hostname ${data.hostname} is already used by another organization`);
  }
  return ctx.prisma.organization.update({
    where: { id: organizationId },
    data: {
      title: data.title,
      emailDomains: data.emailDomains,
      hostname: data.hostname,
      defaultRole: data.defaultRole,
      defaultSiteId: data.defaultContent === null ? null : undefined,
      logoURL: data.logo,
      sso: data.sso,
      ai: data.ai,
      inviteLinks: data.inviteLinks,
      mergeRules: data.mergeRules as Prisma.InputJsonValue | undefined,
    },
  });
}

/** Organizations that accept members of an email domain; callers may look up only their own domain. */
export async function listOrganizationsForEmailDomain(
  ctx: RequestContext,
  emailDomain: string,
): Promise<Organization[]> {
  const domain = parseInput(emailDomainSchema, emailDomain);
  const user = await getViewerUser(ctx);
  if (!user.emailVerified || emailDomainOf(user.email) !== domain) {
    throw new ForbiddenError("You can only look up organizations for your own verified email domain");
  }
  return ctx.prisma.organization.findMany({
    where: { emailDomains: { has: domain } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: 1000,
  });
}

function emailDomainOf(email: string): string {
  return email.slice(email.lastIndexOf("@") + 1).toLowerCase();
}

/** Joins an organization whose allowed email domains include the viewer's verified email domain. */
export async function joinOrganization(ctx: RequestContext, organizationId: string): Promise<Organization> {
  const user = await getViewerUser(ctx);
  const organization = await organizationByIdLoader(ctx).load(organizationId);
  if (!organization) throw new NotFoundError(`Organization ${organizationId} not found`);
  if (!user.emailVerified || !organization.emailDomains.includes(emailDomainOf(user.email))) {
    throw new InvalidInputError("Your verified email domain is not allowed to join this organization");
  }
  await ctx.prisma.member.upsert({
    where: { organizationId_userId: { organizationId, userId: user.id } },
    create: { organizationId, userId: user.id, role: organization.defaultRole, joinedAt: ctx.clock.now() },
    update: {},
  });
  return organization;
}

export interface OrganizationPermissions {
  view: boolean;
  access: boolean;
  admin: boolean;
  ownTeam: boolean;
  createContent: boolean;
  createOpenAPISpec: boolean;
  viewBilling: boolean;
  listMembers: boolean;
  listTeams: boolean;
  listIntegrations: boolean;
  listInstallations: boolean;
  installIntegration: boolean;
}

/** The viewer's `permissions` booleans on an organization (access.md). */
export async function organizationPermissions(
  ctx: RequestContext,
  organizationId: string,
): Promise<OrganizationPermissions> {
  const [membership, ownTeam] = await Promise.all([
    viewerMembershipLoader(ctx).load(organizationId),
    viewerOwnsTeamLoader(ctx).load(organizationId),
  ]);
  const member = Boolean(membership && !membership.disabled);
  const role = member ? membership?.role : null;
  const read = hasRole(role, "read");
  const create = hasRole(role, "create");
  const admin = hasRole(role, "admin");
  return {
    view: member,
    access: read,
    listMembers: read,
    listTeams: read,
    listIntegrations: read,
    createContent: create,
    createOpenAPISpec: create,
    admin,
    viewBilling: admin,
    listInstallations: admin,
    installIntegration: admin,
    ownTeam,
  };
}

export const agentInstructionsSchema = z.strictObject({
  instructions: documentSchema.describe(
    'The instructions as a document: `{ "object": "document", "nodes": [...], "data"?: {...} }`; replaces them',
  ),
});

export async function getAgentInstructions(ctx: RequestContext, organizationId: string) {
  await authorizeInOrganization(ctx, organizationId, canReadAgentInstructions);
  const instructions = await ctx.prisma.agentInstructions.findUnique({ where: { organizationId } });
  if (!instructions) throw new NotFoundError("This organization has no agent instructions yet");
  return instructions;
}

export async function updateAgentInstructions(ctx: RequestContext, organizationId: string, input: unknown) {
  const membership = await authorizeInOrganization(ctx, organizationId, canUpdateOrganization);
  const instructions = parseInput(agentInstructionsSchema, input).instructions as Prisma.InputJsonValue;
  return ctx.prisma.agentInstructions.upsert({
    where: { organizationId },
    create: { organizationId, instructions, updatedById: membership.userId },
    update: { instructions, updatedById: membership.userId },
  });
}
