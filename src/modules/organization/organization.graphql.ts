import type { AgentInstructions, Organization } from "../../db/generated/client.ts";
import { builder } from "../../graphql/builder.ts";
import { RoleEnum } from "../../graphql/enums.ts";
import {
  createOrganization,
  getAgentInstructions,
  getOrganization,
  joinOrganization,
  listOrganizationsForEmailDomain,
  listOrganizationsForViewer,
  loadVisibleOrganizations,
  type OrganizationPermissions,
  organizationPermissions,
  updateAgentInstructions,
  updateOrganization,
} from "./organization.service.ts";

export const OrganizationRef = builder.objectRef<Organization>("Organization");

const OrganizationPermissionsRef = builder.objectRef<OrganizationPermissions>("OrganizationPermissions").implement({
  description: "What the caller may do in the organization.",
  fields: (t) => ({
    view: t.exposeBoolean("view"),
    access: t.exposeBoolean("access"),
    admin: t.exposeBoolean("admin"),
    ownTeam: t.exposeBoolean("ownTeam"),
    createContent: t.exposeBoolean("createContent"),
    createOpenAPISpec: t.exposeBoolean("createOpenAPISpec"),
    viewBilling: t.exposeBoolean("viewBilling"),
    listMembers: t.exposeBoolean("listMembers"),
    listTeams: t.exposeBoolean("listTeams"),
    listIntegrations: t.exposeBoolean("listIntegrations"),
    listInstallations: t.exposeBoolean("listInstallations"),
    installIntegration: t.exposeBoolean("installIntegration"),
  }),
});

const OrganizationUrlsRef = builder
  .objectRef<{ location: string; app: string; logo: string | null }>("OrganizationUrls")
  .implement({
    fields: (t) => ({
      location: t.exposeString("location"),
      app: t.exposeString("app"),
      logo: t.exposeString("logo", { nullable: true }),
    }),
  });

const OrganizationTrialRef = builder.objectRef<{ status: string; count: number }>("OrganizationTrial").implement({
  description: "Trials do not exist in this product: always `notapplicable`.",
  fields: (t) => ({ status: t.exposeString("status"), count: t.exposeInt("count") }),
});

const OrganizationDefaultContentRef = builder
  .objectRef<{ type: string; site: string }>("OrganizationDefaultContent")
  .implement({ fields: (t) => ({ type: t.exposeString("type"), site: t.exposeID("site") }) });

const AgentInstructionsRef = builder.objectRef<AgentInstructions>("AgentInstructions").implement({
  fields: (t) => ({
    instructions: t.field({ type: "JSON", resolve: (row) => row.instructions }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
    updatedBy: t.exposeString("updatedById"),
    urls: t.field({
      type: builder.objectRef<{ location: string }>("AgentInstructionsUrls").implement({
        fields: (u) => ({ location: u.exposeString("location") }),
      }),
      resolve: (row, _args, ctx) => ({
        location: `${ctx.config.publicUrl}/v1/orgs/${row.organizationId}/agent-instructions`,
      }),
    }),
  }),
});

builder.node(OrganizationRef, {
  description: "An organization: members, teams and all their content.",
  id: { resolve: (organization) => organization.id },
  loadMany: (ids, ctx) => loadVisibleOrganizations(ctx, ids),
  fields: (t) => ({
    title: t.exposeString("title"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    emailDomains: t.exposeStringList("emailDomains"),
    hostname: t.exposeString("hostname", { nullable: true }),
    type: t.exposeString("type"),
    useCase: t.exposeString("useCase", { nullable: true }),
    communityType: t.exposeString("communityType", { nullable: true }),
    defaultRole: t.expose("defaultRole", { type: RoleEnum, nullable: true }),
    defaultContent: t.field({
      type: OrganizationDefaultContentRef,
      nullable: true,
      resolve: (organization) =>
        organization.defaultSiteId ? { type: "site", site: organization.defaultSiteId } : null,
    }),
    sso: t.exposeBoolean("sso"),
    ai: t.exposeBoolean("ai"),
    inviteLinks: t.exposeBoolean("inviteLinks"),
    plan: t.exposeString("plan"),
    mergeRules: t.field({ type: "JSON", resolve: (organization) => organization.mergeRules }),
    trial: t.field({ type: OrganizationTrialRef, resolve: () => ({ status: "notapplicable", count: 0 }) }),
    urls: t.field({
      type: OrganizationUrlsRef,
      resolve: (organization, _args, ctx) => ({
        location: `${ctx.config.publicUrl}/v1/orgs/${organization.id}`,
        app: `${ctx.config.publicUrl}/graphql`,
        logo: organization.logoURL,
      }),
    }),
    permissions: t.field({
      type: OrganizationPermissionsRef,
      resolve: (organization, _args, ctx) => organizationPermissions(ctx, organization.id),
    }),
    agentInstructions: t.field({
      type: AgentInstructionsRef,
      nullable: true,
      description: "getOrganizationAgentInstructions. Errors with NOT_FOUND until instructions are set.",
      resolve: (organization, _args, ctx) => getAgentInstructions(ctx, organization.id),
    }),
  }),
});

builder.queryFields((t) => ({
  organization: t.field({
    type: OrganizationRef,
    description: "getOrganizationById",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => getOrganization(ctx, String(args.id)),
  }),
  organizations: t.connection({
    type: OrganizationRef,
    description: "listOrganizationsForAuthenticatedUser: organizations the caller is a member of.",
    resolve: (_root, args, ctx) => listOrganizationsForViewer(ctx, args),
  }),
  organizationsForEmailDomain: t.field({
    type: [OrganizationRef],
    description: "getOrganizationsForEmailDomain: organizations accepting members of the caller's own email domain.",
    args: { emailDomain: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => listOrganizationsForEmailDomain(ctx, args.emailDomain),
  }),
}));

const CreateOrganizationInput = builder.inputType("CreateOrganizationInput", {
  fields: (t) => ({
    title: t.string({ required: true }),
    emailDomains: t.stringList(),
    type: t.string(),
    useCase: t.string(),
  }),
});

const UpdateOrganizationInput = builder.inputType("UpdateOrganizationInput", {
  fields: (t) => ({
    title: t.string(),
    emailDomains: t.stringList(),
    hostname: t.string(),
    defaultRole: t.field({ type: RoleEnum }),
    defaultContent: t.field({ type: "JSON", description: '`{ "type": "site", "site": <site id> }` or null' }),
    logo: t.string(),
    sso: t.boolean(),
    ai: t.boolean(),
    inviteLinks: t.boolean(),
    mergeRules: t.field({ type: "JSON" }),
  }),
});

const UpdateAgentInstructionsInput = builder.inputType("UpdateAgentInstructionsInput", {
  fields: (t) => ({ instructions: t.field({ type: "JSON", required: true }) }),
});

builder.mutationFields((t) => ({
  createOrganization: t.field({
    type: OrganizationRef,
    description: "Creates an organization; the caller becomes its admin.",
    args: { input: t.arg({ type: CreateOrganizationInput, required: true }) },
    resolve: (_root, args, ctx) => createOrganization(ctx, args.input),
  }),
  updateOrganizationById: t.field({
    type: OrganizationRef,
    args: {
      organizationId: t.arg.id({ required: true }),
      input: t.arg({ type: UpdateOrganizationInput, required: true }),
    },
    resolve: (_root, args, ctx) => updateOrganization(ctx, String(args.organizationId), args.input),
  }),
  joinOrganization: t.boolean({
    description: "Joins an organization that allows the caller's verified email domain.",
    args: { organizationId: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => {
      await joinOrganization(ctx, String(args.organizationId));
      return true;
    },
  }),
  updateOrganizationAgentInstructions: t.field({
    type: AgentInstructionsRef,
    args: {
      organizationId: t.arg.id({ required: true }),
      input: t.arg({ type: UpdateAgentInstructionsInput, required: true }),
    },
    resolve: (_root, args, ctx) => updateAgentInstructions(ctx, String(args.organizationId), args.input),
  }),
}));
