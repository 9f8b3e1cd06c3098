import type { SamlProvider } from "../../db/generated/client.ts";
import { builder } from "../../graphql/builder.ts";
import { publicEnum, RoleEnum } from "../../graphql/enums.ts";
import { describeInputField } from "../../graphql/input-description.ts";
import { idColumn } from "../../graphql/node-ids.ts";
import { describeMutation, payloadType } from "../../graphql/payload.ts";
import { edgeOf } from "../../paging/pagination.ts";
import { addOrganizationParent, OrganizationRef } from "../organization/organization.public.ts";
import { TeamRef } from "../team/team.public.ts";
import {
  createProvider,
  createProviderSchema,
  deleteProvider,
  getProvider,
  listLoginOptions,
  listProviders,
  loadVisibleProviders,
  providerDefaultTeam,
  providerLocation,
  providerStatus,
  samlProviderOrder,
  serviceEndpoints,
  updateProvider,
  updateProviderSchema,
} from "./saml-provider.service.ts";

const SamlServiceRef = builder
  .objectRef<{ acsURL: string; startURL: string; entityID: string }>("SAMLServiceProvider")
  .implement({
    description: "Our side of the exchange, as the identity provider is configured with it.",
    fields: (t) => ({
      acsURL: t.expose("acsURL", {
        type: "URL",
        description: "Assertion Consumer Service: receives the signed response.",
      }),
      startURL: t.expose("startURL", {
        type: "URL",
        description: "Starts a login: redirects to the identity provider.",
      }),
      entityID: t.exposeString("entityID", { description: "Our entity id (a URL) for this provider." }),
    }),
  });

const SamlProviderUrlsRef = builder.objectRef<{ location: string }>("SAMLProviderURLs").implement({
  description: "Where a SAML provider is found.",
  fields: (t) => ({
    location: t.expose("location", { type: "URL", description: "The provider's URL in the REST API." }),
  }),
});

const SamlProviderStatusEnum = publicEnum("SAMLProviderStatus", "Whether a SAML provider can be signed in with.", {
  active: "entityID, ssoURL and certificate are all set: members may sign in with it.",
  pending: "Some of entityID, ssoURL and certificate are missing: not offered yet.",
});

const SamlProviderRef = builder.node(builder.objectRef<SamlProvider>("SAMLProvider"), {
  extensions: { restObjectName: "saml-provider" },
  description: "A SAML identity provider members of the organization sign in with. Organization admins only.",
  id: idColumn,
  loadMany: (ids, ctx) => loadVisibleProviders(ctx, ids),
  fields: (t) => ({
    label: t.exposeString("label", { description: "The name members see on the sign-in page (1..30 characters)." }),
    ssoURL: t.exposeString("ssoURL", { description: "The identity provider's login URL (empty until set)." }),
    entityID: t.exposeString("entityID", { description: "The identity provider's entity id (empty until set)." }),
    certificate: t.exposeString("certificate", {
      description: "The identity provider's signing certificate (PEM; empty until set).",
    }),
    defaultTeam: t.field({
      type: TeamRef,
      nullable: true,
      description: "The team new SSO members join; null for none.",
      resolve: (provider, _args, ctx) => providerDefaultTeam(ctx, provider),
    }),
    defaultRole: t.expose("defaultRole", {
      extensions: { restKeepsNull: true },
      type: RoleEnum,
      nullable: true,
      description: "The role of new SSO members; null makes them guests.",
    }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When it was created (ISO 8601)." }),
    status: t.field({
      type: SamlProviderStatusEnum,
      description: "Whether it can be signed in with yet.",
      resolve: (provider) => providerStatus(provider),
    }),
    service: t.field({
      type: SamlServiceRef,
      description: "Our endpoints, to configure the identity provider with.",
      resolve: (provider, _args, ctx) => serviceEndpoints(ctx, provider),
    }),
    urls: t.field({
      type: SamlProviderUrlsRef,
      description: "Where the provider is found.",
      resolve: (provider, _args, ctx) => ({ location: providerLocation(ctx, provider) }),
    }),
  }),
});

const SsoLoginRef = builder.objectRef<{ id: string; label: string; startURL: string }>("SSOProviderLogin").implement({
  description: "A way to sign in to an organization: one active SAML provider.",
  fields: (t) => ({
    providerId: t.exposeID("id", { description: "The SAML provider's id." }),
    label: t.exposeString("label", { description: "Its name, to show on a sign-in page." }),
    startURL: t.expose("startURL", { type: "URL", description: "Where to send the person: starts the login." }),
  }),
});

const SsoLoginsRef = builder
  .objectRef<{ items: { id: string; label: string; startURL: string }[] }>("SSOProviderLogins")
  .implement({
    description: "An organization's ways to sign in.",
    fields: (t) => ({
      items: t.field({
        type: [SsoLoginRef],
        description: "The active SAML providers, oldest first.",
        resolve: (list) => list.items,
      }),
    }),
  });

/** The edge of an organization's `samlProviders`, shared with `createOrganizationSAMLProvider`'s payload. */
const SamlProviderEdgeRef = builder.edgeObject({
  type: SamlProviderRef,
  name: "OrganizationSAMLProvidersConnectionEdge",
});

builder.objectFields(OrganizationRef, (t) => ({
  samlProviders: t.connection(
    {
      type: SamlProviderRef,
      description: "The organization's SAML providers; organization admins (listSAMLProvidersInOrganizationById).",
      resolve: (organization, args, ctx) => listProviders(ctx, organization.id, args),
    },
    { name: "OrganizationSAMLProvidersConnection" },
    SamlProviderEdgeRef,
  ),
  samlProvider: t.field({
    type: SamlProviderRef,
    description: "One SAML provider; organization admins (getOrganizationSAMLProviderById).",
    args: { id: t.arg.id({ required: true, description: "The provider's id." }) },
    resolve: (organization, args, ctx) => getProvider(ctx, organization.id, args.id),
  }),
}));

builder.queryFields((t) => ({
  ssoProviderLogins: t.field({
    type: SsoLoginsRef,
    description:
      "An organization's active SAML providers and their start URLs, for a sign-in page; needs no token " +
      "(listSSOProviderLoginsInOrganization).",
    args: { organizationId: t.arg.id({ required: true, description: "The organization's id." }) },
    resolve: async (_root, args, ctx) => ({ items: await listLoginOptions(ctx, args.organizationId) }),
  }),
}));

const CreateSamlProviderInput = builder.inputType("CreateSAMLProviderInput", {
  description: "A new SAML provider; it is active once entityID, ssoURL and certificate are set.",
  fields: (t) => ({
    label: t.string({ required: true, description: describeInputField(createProviderSchema, "label") }),
    entityID: t.string({ description: describeInputField(createProviderSchema, "entityID") }),
    certificate: t.string({ description: describeInputField(createProviderSchema, "certificate") }),
    ssoURL: t.string({ description: describeInputField(createProviderSchema, "ssoURL") }),
    defaultTeam: t.id({ description: describeInputField(createProviderSchema, "defaultTeam") }),
    defaultRole: t.field({ type: RoleEnum, description: describeInputField(createProviderSchema, "defaultRole") }),
  }),
});

const UpdateSamlProviderInput = builder.inputType("UpdateSAMLProviderInput", {
  description: "Changes to a SAML provider; omitted fields stay as they are.",
  fields: (t) => ({
    label: t.string({ description: describeInputField(updateProviderSchema, "label") }),
    entityID: t.string({ description: describeInputField(updateProviderSchema, "entityID") }),
    certificate: t.string({ description: describeInputField(updateProviderSchema, "certificate") }),
    ssoURL: t.string({ description: describeInputField(updateProviderSchema, "ssoURL") }),
    defaultTeam: t.id({ description: describeInputField(updateProviderSchema, "defaultTeam") }),
    defaultRole: t.field({ type: RoleEnum, description: describeInputField(updateProviderSchema, "defaultRole") }),
  }),
});

const CreateOrganizationSAMLProviderPayloadRef = payloadType<{
  samlProvider: typeof SamlProviderRef.$inferType;
  samlProviderEdge: typeof SamlProviderEdgeRef.$inferType;
}>("createOrganizationSAMLProvider", {
  samlProvider: { type: SamlProviderRef, description: "The new provider." },
  samlProviderEdge: {
    type: SamlProviderEdgeRef,
    description: "The new provider's edge in the organization's `samlProviders`.",
  },
});

const UpdateOrganizationSAMLProviderPayloadRef = payloadType<{ samlProvider: typeof SamlProviderRef.$inferType }>(
  "updateOrganizationSAMLProvider",
  {
    samlProvider: { type: SamlProviderRef, description: "The provider, changed." },
  },
);

const DeleteOrganizationSAMLProviderPayloadRef = payloadType<{ deletedId: string }>("deleteOrganizationSAMLProvider", {
  deletedId: { type: "ID", description: "The deleted provider's id (for Relay's `@deleteRecord`)." },
});

builder.mutationFields((t) => {
  const organizationId = t.arg.id({ required: true, description: "The organization's id." });
  const providerArgs = {
    organizationId: t.arg.id({
      description: "The organization's id. Optional: the provider names it; when given and not its own, NOT_FOUND.",
    }),
    samlProviderId: t.arg.id({ required: true, description: "The SAML provider's id." }),
  };
  return {
    createOrganizationSAMLProvider: t.field({
      type: CreateOrganizationSAMLProviderPayloadRef,
      ...describeMutation("Adds a SAML provider; organization admins (createOrganizationSAMLProvider).", {
        NOT_FOUND: "no such organization for the caller",
        FORBIDDEN: "not an organization admin",
        BAD_USER_INPUT: "invalid input",
      }),
      args: {
        organizationId,
        input: t.arg({ type: CreateSamlProviderInput, required: true, description: "The new provider." }),
      },
      resolve: async (_root, args, ctx) => {
        const samlProvider = await createProvider(ctx, args.organizationId, args.input);
        return { samlProvider, samlProviderEdge: edgeOf(samlProviderOrder, samlProvider) };
      },
    }),
    updateOrganizationSAMLProvider: t.field({
      type: UpdateOrganizationSAMLProviderPayloadRef,
      ...describeMutation("Changes a SAML provider; organization admins (updateOrganizationSAMLProvider).", {
        NOT_FOUND: "no such organization or provider for the caller",
        FORBIDDEN: "not an organization admin",
        BAD_USER_INPUT: "invalid input",
      }),
      args: {
        ...providerArgs,
        input: t.arg({ type: UpdateSamlProviderInput, required: true, description: "The changes." }),
      },
      resolve: async (_root, args, ctx) => ({
        samlProvider: await updateProvider(ctx, args.organizationId, args.samlProviderId, args.input),
      }),
    }),
    deleteOrganizationSAMLProvider: t.field({
      type: DeleteOrganizationSAMLProviderPayloadRef,
      ...describeMutation(
        "Deletes a SAML provider; deleting one that does not exist succeeds, given `organizationId`. " +
          "Organization admins (deleteOrganizationSAMLProvider).",
        { NOT_FOUND: "no such organization or provider for the caller", FORBIDDEN: "not an organization admin" },
      ),
      args: providerArgs,
      resolve: async (_root, args, ctx) => {
        await deleteProvider(ctx, args.organizationId, args.samlProviderId);
        return { deletedId: args.samlProviderId };
      },
    }),
  };
});

addOrganizationParent(SamlProviderRef);
