import type { ObjectRef } from "@pothos/core";
import type { AgentInstructions, Organization } from "../../db/generated/client.ts";
import { type BuilderTypes, builder } from "../../graphql/builder.ts";
import { publicEnum, RoleEnum } from "../../graphql/enums.ts";
import { describeInputField } from "../../graphql/input-description.ts";
import { dateBoundFields, orderByDescription, orderInput, timeRangeKeys } from "../../graphql/list-order.ts";
import { idColumn } from "../../graphql/node-ids.ts";
import { describeMutation, payloadType } from "../../graphql/payload.ts";
import { checkedByService } from "../../graphql/service-check.ts";
import { viewerCanFields } from "../../graphql/viewer-can.ts";
import { edgeOf } from "../../paging/pagination.ts";
import { parentOrganization } from "./organization.loaders.ts";
import {
  agentInstructionsSchema,
  createOrganization,
  createOrganizationSchema,
  getAgentInstructions,
  getOrganization,
  joinOrganization,
  listOrganizationsForEmailDomain,
  listOrganizationsForViewer,
  loadVisibleOrganizations,
  organizationFilterSchema,
  organizationListOrder,
  organizationOrder,
  organizationPermissions,
  updateAgentInstructions,
  updateOrganization,
  updateOrganizationSchema,
} from "./organization.service.ts";

export const OrganizationRef = builder.objectRef<Organization>("Organization");

const OrganizationTypeEnum = publicEnum<string>("OrganizationType", "The kind of an organization.", {
  business: "A company or team.",
  community: "A community, such as an open-source project.",
});

const OrganizationUseCaseEnum = publicEnum<string>("OrganizationUseCase", "What an organization documents.", {
  internalDocs: "Internal documentation.",
  docsSite: "A documentation site.",
  audienceControlledSite: "A site for a restricted audience.",
  productDocs: "Product documentation.",
  teamKnowledgeBase: "A team's knowledge base.",
  designSystem: "A design system.",
  openSourceDocs: "Open-source documentation.",
  notes: "Notes.",
  other: "Something else.",
});

const OrganizationUrlsRef = builder
  .objectRef<{ location: string; app: string; logo: string | null }>("OrganizationURLs")
  .implement({
    description: "Where an organization is found.",
    fields: (t) => ({
      location: t.expose("location", { type: "URL", description: "The organization's URL in the REST API." }),
      app: t.expose("app", { type: "URL", description: "The URL of this GraphQL API, where it is managed." }),
      logo: t.expose("logo", { type: "URL", nullable: true, description: "URL of its logo; null if none." }),
    }),
  });

const OrganizationTrialRef = builder.objectRef<{ status: string; count: number }>("OrganizationTrial").implement({
  description: "Trials do not exist in this product: always `notapplicable`.",
  fields: (t) => ({
    status: t.exposeString("status", { description: "Always notapplicable." }),
    count: t.exposeInt("count", { description: "Number of trials taken: always 0." }),
  }),
});

/** Its `site` object is added by the site-structure module, which owns sites. */
export const OrganizationDefaultContentRef = builder
  .objectRef<{ type: string; site: string }>("OrganizationDefaultContent")
  .implement({
    description: "The content visitors of the organization land on.",
    fields: (t) => ({
      type: t.exposeString("type", { description: "Always site." }),
      siteId: t.exposeID("site", { description: "Id of the site (the id of `site`)." }),
    }),
  });

const AgentInstructionsRef = builder.objectRef<AgentInstructions>("AgentInstructions").implement({
  description: "Instructions an organization gives AI agents that work on its content.",
  fields: (t) => ({
    instructions: t.field({
      type: "JSON",
      description: 'The instructions as a document: `{ "object": "document", "nodes": [...] }`.',
      resolve: (row) => row.instructions,
    }),
    updatedAt: t.expose("updatedAt", { type: "DateTime", description: "When they were last set (ISO 8601)." }),
    updatedBy: t.exposeString("updatedById", { description: "Id of the user who last set them." }),
    urls: t.field({
      type: builder.objectRef<{ location: string }>("AgentInstructionsURLs").implement({
        description: "Where agent instructions are found.",
        fields: (u) => ({ location: u.expose("location", { type: "URL", description: "Their URL in the REST API." }) }),
      }),
      description: "Where they are found.",
      resolve: (row, _args, ctx) => ({
        location: `${ctx.config.publicUrl}/v1/orgs/${row.organizationId}/agent-instructions`,
      }),
    }),
  }),
});

builder.node(OrganizationRef, {
  description: "An organization: members, teams and all their content.",
  id: idColumn,
  loadMany: (ids, ctx) => loadVisibleOrganizations(ctx, ids),
  fields: (t) => ({
    title: t.exposeString("title", { description: "The organization's name (2..255 characters)." }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When it was created (ISO 8601)." }),
    emailDomains: t.exposeStringList("emailDomains", {
      description: "Email domains whose verified users may join it themselves (lower case).",
    }),
    hostname: t.exposeString("hostname", { nullable: true, description: "Its unique hostname label; null if none." }),
    type: t.expose("type", { type: OrganizationTypeEnum, description: "The kind of organization." }),
    useCase: t.expose("useCase", {
      type: OrganizationUseCaseEnum,
      nullable: true,
      description: "What it documents; null if not set.",
    }),
    communityType: t.exposeString("communityType", {
      nullable: true,
      description: "The kind of community, for community organizations; null if not set.",
    }),
    defaultRole: t.expose("defaultRole", {
      type: RoleEnum,
      nullable: true,
      description: "The role of members who join by email domain; null: guests.",
    }),
    defaultContent: t.field({
      type: OrganizationDefaultContentRef,
      nullable: true,
      description: "The content visitors land on; null if none.",
      resolve: (organization) =>
        organization.defaultSiteId ? { type: "site", site: organization.defaultSiteId } : null,
    }),
    sso: t.exposeBoolean("sso", {
      description: "Whether members must sign in through its SAML provider (only SSO members get in).",
    }),
    ai: t.exposeBoolean("ai", { description: "Whether AI features are on." }),
    inviteLinks: t.exposeBoolean("inviteLinks", { description: "Whether invite links may be used to join." }),
    plan: t.exposeString("plan", { description: "Its plan (there are no paid plans here: free)." }),
    mergeRules: t.expose("mergeRules", {
      type: "JSON",
      description:
        "What change requests need to merge in spaces that inherit: `{type: none}` or " +
        "`{type: rules, rules: [{rule, users?}]}`.",
    }),
    trial: t.field({
      type: OrganizationTrialRef,
      description: "Trial status (always notapplicable).",
      resolve: () => ({ status: "notapplicable", count: 0 }),
    }),
    urls: t.field({
      type: OrganizationUrlsRef,
      description: "Where the organization is found.",
      resolve: (organization, _args, ctx) => ({
        location: `${ctx.config.publicUrl}/v1/orgs/${organization.id}`,
        app: `${ctx.config.publicUrl}/graphql`,
        logo: organization.logoURL,
      }),
    }),
    ...viewerCanFields(t, (organization, ctx) => organizationPermissions(ctx, organization.id), {
      viewerCanView: ["view", "Whether the viewer may see the organization (a member or guest, not disabled)."],
      viewerCanAccess: ["access", "Whether the viewer may open it (role read or more)."],
      viewerCanAdminister: [
        "admin",
        "Whether the viewer may administer it: settings, members, teams, SSO (role admin).",
      ],
      viewerOwnsTeam: ["ownTeam", "Whether the viewer owns at least one of its teams."],
      viewerCanCreateContent: [
        "createContent",
        "Whether the viewer may create spaces, collections, sites and translations (role create or more).",
      ],
      viewerCanCreateOpenAPISpec: [
        "createOpenAPISpec",
        "Whether the viewer may create OpenAPI specs (role create or more).",
      ],
      viewerCanViewBilling: ["viewBilling", "Whether the viewer may see billing (role admin)."],
      viewerCanListMembers: ["listMembers", "Whether the viewer may list its members (role read or more)."],
      viewerCanListTeams: ["listTeams", "Whether the viewer may list its teams (role read or more)."],
      viewerCanListIntegrations: ["listIntegrations", "Whether the viewer may list integrations (role read or more)."],
      viewerCanListInstallations: [
        "listInstallations",
        "Whether the viewer may list integration installations (role admin).",
      ],
      viewerCanInstallIntegration: ["installIntegration", "Whether the viewer may install integrations (role admin)."],
    }),
    agentInstructions: t.field({
      type: AgentInstructionsRef,
      nullable: true,
      description:
        "Instructions for AI agents; a NOT_FOUND error until they are set. Organization members " +
        "(getOrganizationAgentInstructions).",
      resolve: (organization, _args, ctx) => getAgentInstructions(ctx, organization.id),
    }),
  }),
});

const OrganizationOrderInput = orderInput("Organization", "organizations", organizationListOrder.fields);

const OrganizationFilterInput = builder.inputType("OrganizationFilter", {
  description: "Conditions on the organizations listed, all of which must hold.",
  fields: (t) => ({
    titleContains: t.string({ description: describeInputField(organizationFilterSchema, "titleContains") }),
    ...dateBoundFields(t, organizationFilterSchema, timeRangeKeys),
  }),
});

/** The edge of `organizations`, shared with `createOrganization`'s payload. */
const OrganizationEdgeRef = builder.edgeObject({ type: OrganizationRef, name: "QueryOrganizationsConnectionEdge" });

builder.queryFields((t) => ({
  organization: t.field({
    type: OrganizationRef,
    description: "An organization the caller is a member or guest of (getOrganizationById).",
    args: { id: t.arg.id({ required: true, description: "The organization's id." }) },
    resolve: (_root, args, ctx) => getOrganization(ctx, args.id),
  }),
  organizations: t.connection(
    {
      type: OrganizationRef,
      description: "The organizations the caller is a member of (listOrganizationsForAuthenticatedUser).",
      args: {
        orderBy: t.arg({ type: [OrganizationOrderInput], description: orderByDescription("oldest first") }),
        filter: t.arg({ type: OrganizationFilterInput, description: "Conditions on the organizations listed." }),
      },
      resolve: (_root, args, ctx) => listOrganizationsForViewer(ctx, args, args),
    },
    {},
    OrganizationEdgeRef,
  ),
  organizationsForEmailDomain: t.field({
    type: [OrganizationRef],
    description:
      "Organizations that accept members of an email domain, oldest first (at most 1000); callers may look up " +
      "only their own verified email domain (getOrganizationsForEmailDomain).",
    args: {
      emailDomain: t.arg.string({ required: true, description: "A domain name such as example.com (any case)." }),
    },
    resolve: (_root, args, ctx) => listOrganizationsForEmailDomain(ctx, args.emailDomain),
  }),
}));

const CreateOrganizationInput = builder.inputType("CreateOrganizationInput", {
  description: "A new organization.",
  fields: (t) => ({
    title: t.string({ required: true, description: describeInputField(createOrganizationSchema, "title") }),
    emailDomains: t.stringList({ description: describeInputField(createOrganizationSchema, "emailDomains") }),
    type: t.field({
      type: OrganizationTypeEnum,
      description: describeInputField(createOrganizationSchema, "type"),
      extensions: checkedByService(createOrganizationSchema, 1),
    }),
    useCase: t.field({
      type: OrganizationUseCaseEnum,
      description: describeInputField(createOrganizationSchema, "useCase"),
      extensions: checkedByService(createOrganizationSchema, 1),
    }),
  }),
});

const UpdateOrganizationInput = builder.inputType("UpdateOrganizationInput", {
  description: "Changes to an organization's settings; omitted fields stay as they are.",
  fields: (t) => ({
    title: t.string({ description: describeInputField(updateOrganizationSchema, "title") }),
    emailDomains: t.stringList({ description: describeInputField(updateOrganizationSchema, "emailDomains") }),
    hostname: t.string({ description: describeInputField(updateOrganizationSchema, "hostname") }),
    defaultRole: t.field({ type: RoleEnum, description: describeInputField(updateOrganizationSchema, "defaultRole") }),
    defaultContent: t.field({
      type: "JSON",
      description: describeInputField(updateOrganizationSchema, "defaultContent"),
    }),
    logo: t.string({ description: describeInputField(updateOrganizationSchema, "logo") }),
    sso: t.boolean({ description: describeInputField(updateOrganizationSchema, "sso") }),
    ai: t.boolean({ description: describeInputField(updateOrganizationSchema, "ai") }),
    inviteLinks: t.boolean({ description: describeInputField(updateOrganizationSchema, "inviteLinks") }),
    mergeRules: t.field({ type: "JSON", description: describeInputField(updateOrganizationSchema, "mergeRules") }),
  }),
});

const UpdateAgentInstructionsInput = builder.inputType("UpdateAgentInstructionsInput", {
  description: "An organization's new agent instructions.",
  fields: (t) => ({
    instructions: t.field({
      type: "JSON",
      required: true,
      description: describeInputField(agentInstructionsSchema, "instructions"),
    }),
  }),
});

const CreateOrganizationPayloadRef = payloadType<{
  organization: typeof OrganizationRef.$inferType;
  organizationEdge: typeof OrganizationEdgeRef.$inferType;
}>("createOrganization", {
  organization: { type: OrganizationRef, description: "The new organization." },
  organizationEdge: { type: OrganizationEdgeRef, description: "The new organization's edge in `organizations`." },
});

const UpdateOrganizationPayloadRef = payloadType<{ organization: typeof OrganizationRef.$inferType }>(
  "updateOrganization",
  {
    organization: { type: OrganizationRef, description: "The organization, changed." },
  },
);

const JoinOrganizationPayloadRef = payloadType<{ organization: typeof OrganizationRef.$inferType }>(
  "joinOrganization",
  {
    organization: { type: OrganizationRef, description: "The organization joined." },
  },
);

const UpdateOrganizationAgentInstructionsPayloadRef = payloadType<{
  agentInstructions: typeof AgentInstructionsRef.$inferType;
}>("updateOrganizationAgentInstructions", {
  agentInstructions: { type: AgentInstructionsRef, description: "The organization's new instructions." },
});

builder.mutationFields((t) => {
  const organizationId = t.arg.id({ required: true, description: "The organization's id." });
  return {
    createOrganization: t.field({
      type: CreateOrganizationPayloadRef,
      ...describeMutation("Creates an organization; the caller becomes its admin (createOrganization).", {
        BAD_USER_INPUT: "invalid input",
      }),
      args: { input: t.arg({ type: CreateOrganizationInput, required: true, description: "The new organization." }) },
      resolve: async (_root, args, ctx) => {
        const organization = await createOrganization(ctx, args.input);
        return { organization, organizationEdge: edgeOf(organizationOrder, organization) };
      },
    }),
    updateOrganization: t.field({
      type: UpdateOrganizationPayloadRef,
      ...describeMutation("Changes an organization's settings; organization admins (updateOrganizationById).", {
        NOT_FOUND: "no such organization for the caller",
        FORBIDDEN: "not an organization admin",
        BAD_USER_INPUT: "invalid input",
      }),
      args: {
        organizationId,
        input: t.arg({ type: UpdateOrganizationInput, required: true, description: "The changes." }),
      },
      resolve: async (_root, args, ctx) => ({
        organization: await updateOrganization(ctx, args.organizationId, args.input),
      }),
    }),
    joinOrganization: t.field({
      type: JoinOrganizationPayloadRef,
      ...describeMutation(
        "Joins an organization that allows the caller's verified email domain, with its default role; a member " +
          "keeps their membership. (joinOrganization).",
        { NOT_FOUND: "no such organization", BAD_USER_INPUT: "the caller's verified email domain is not allowed" },
      ),
      args: { organizationId },
      resolve: async (_root, args, ctx) => ({ organization: await joinOrganization(ctx, args.organizationId) }),
    }),
    updateOrganizationAgentInstructions: t.field({
      type: UpdateOrganizationAgentInstructionsPayloadRef,
      ...describeMutation(
        "Sets the organization's instructions for AI agents, replacing them; organization admins " +
          "(updateOrganizationAgentInstructions).",
        {
          NOT_FOUND: "no such organization for the caller",
          FORBIDDEN: "not an organization admin",
          BAD_USER_INPUT: "invalid input",
        },
      ),
      args: {
        organizationId,
        input: t.arg({ type: UpdateAgentInstructionsInput, required: true, description: "The new instructions." }),
      },
      resolve: async (_root, args, ctx) => ({
        agentInstructions: await updateAgentInstructions(ctx, args.organizationId, args.input),
      }),
    }),
  };
});

/** `organization` and `organizationId` on a type of an organization's rows: every node reaches its organization. */
export function addOrganizationParent<Row extends { organizationId: string }>(ref: ObjectRef<BuilderTypes, Row>) {
  builder.objectFields(ref, (t) => ({
    organizationId: t.id({
      description: "The organization's id (the id of `organization`).",
      resolve: (row) => row.organizationId,
    }),
    organization: t.field({
      type: OrganizationRef,
      description: "The organization it belongs to.",
      resolve: (row, _args, ctx) => parentOrganization(ctx, row.organizationId),
    }),
  }));
}
