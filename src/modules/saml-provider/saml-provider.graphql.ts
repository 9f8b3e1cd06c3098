import type { SamlProvider } from "../../db/generated/client.ts";
import { builder } from "../../graphql/builder.ts";
import { RoleEnum } from "../../graphql/enums.ts";
import { OrganizationRef } from "../organization/organization.graphql.ts";
import { TeamRef } from "../team/team.graphql.ts";
import { teamByIdLoader } from "../team/team.loaders.ts";
import {
  createProvider,
  deleteProvider,
  getProvider,
  listLoginOptions,
  listProviders,
  loadVisibleProviders,
  providerLocation,
  providerStatus,
  serviceEndpoints,
  updateProvider,
} from "./saml-provider.service.ts";

const SamlServiceRef = builder
  .objectRef<{ acsURL: string; startURL: string; entityID: string }>("SAMLServiceProvider")
  .implement({
    description: "Our side of the exchange, as the identity provider is configured with it.",
    fields: (t) => ({
      acsURL: t.exposeString("acsURL", { description: "Assertion Consumer Service: receives the signed response." }),
      startURL: t.exposeString("startURL", { description: "Starts a login: redirects to the identity provider." }),
      entityID: t.exposeString("entityID"),
    }),
  });

const SamlProviderUrlsRef = builder.objectRef<{ location: string }>("SAMLProviderUrls").implement({
  fields: (t) => ({ location: t.exposeString("location") }),
});

const SamlProviderStatusEnum = builder.enumType("SAMLProviderStatus", {
  description: "pending until entityID, ssoURL and certificate are all set.",
  values: ["active", "pending"] as const,
});

const SamlProviderRef = builder.node(builder.objectRef<SamlProvider>("SAMLProvider"), {
  description: "A SAML identity provider members of the organization sign in with.",
  id: { resolve: (row) => row.id },
  loadMany: (ids, ctx) => loadVisibleProviders(ctx, ids),
  fields: (t) => ({
    label: t.exposeString("label"),
    ssoURL: t.exposeString("ssoURL", { description: "The identity provider's login URL (empty until set)." }),
    entityID: t.exposeString("entityID", { description: "The identity provider's entity id (empty until set)." }),
    certificate: t.exposeString("certificate", { description: "The identity provider's signing certificate (PEM)." }),
    defaultTeam: t.field({
      type: TeamRef,
      nullable: true,
      description: "The team new SSO members join.",
      resolve: (provider, _args, ctx) =>
        provider.defaultTeamId ? teamByIdLoader(ctx).load(provider.defaultTeamId) : null,
    }),
    defaultRole: t.expose("defaultRole", {
      type: RoleEnum,
      nullable: true,
      description: "The role of new SSO members; null makes them guests.",
    }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    status: t.field({ type: SamlProviderStatusEnum, resolve: (provider) => providerStatus(provider) }),
    service: t.field({ type: SamlServiceRef, resolve: (provider, _args, ctx) => serviceEndpoints(ctx, provider) }),
    urls: t.field({
      type: SamlProviderUrlsRef,
      resolve: (provider, _args, ctx) => ({ location: providerLocation(ctx, provider) }),
    }),
  }),
});

const SsoLoginRef = builder.objectRef<{ id: string; label: string; startURL: string }>("SSOProviderLogin").implement({
  fields: (t) => ({ id: t.exposeID("id"), label: t.exposeString("label"), startURL: t.exposeString("startURL") }),
});

const SsoLoginsRef = builder
  .objectRef<{ items: { id: string; label: string; startURL: string }[] }>("SSOProviderLogins")
  .implement({ fields: (t) => ({ items: t.field({ type: [SsoLoginRef], resolve: (list) => list.items }) }) });

builder.objectFields(OrganizationRef, (t) => ({
  samlProviders: t.connection({
    type: SamlProviderRef,
    description: "listSAMLProvidersInOrganizationById (organization admins)",
    resolve: (organization, args, ctx) => listProviders(ctx, organization.id, args),
  }),
  samlProvider: t.field({
    type: SamlProviderRef,
    description: "getOrganizationSAMLProviderById (organization admins)",
    args: { id: t.arg.id({ required: true }) },
    resolve: (organization, args, ctx) => getProvider(ctx, organization.id, String(args.id)),
  }),
}));

builder.queryFields((t) => ({
  ssoProviderLogins: t.field({
    type: SsoLoginsRef,
    description: "listSSOProviderLoginsInOrganization: the active providers' start URLs; needs no token.",
    args: { organizationId: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => ({ items: await listLoginOptions(ctx, String(args.organizationId)) }),
  }),
}));

const providerInputFields = {
  entityID: "The identity provider's entity id (max 1024).",
  certificate: "The identity provider's signing certificate, PEM X.509 (max 10000).",
  ssoURL: "The identity provider's login URL (http or https, max 2048).",
  defaultTeam: "Id of a team of the organization that new SSO members join; null for none.",
};

const CreateSamlProviderInput = builder.inputType("CreateSAMLProviderInput", {
  fields: (t) => ({
    label: t.string({ required: true, description: "1..30 characters." }),
    entityID: t.string({ description: providerInputFields.entityID }),
    certificate: t.string({ description: providerInputFields.certificate }),
    ssoURL: t.string({ description: providerInputFields.ssoURL }),
    defaultTeam: t.string({ description: providerInputFields.defaultTeam }),
    defaultRole: t.field({ type: RoleEnum, description: "Role of new SSO members; null makes them guests." }),
  }),
});

const UpdateSamlProviderInput = builder.inputType("UpdateSAMLProviderInput", {
  fields: (t) => ({
    label: t.string({ description: "1..30 characters." }),
    entityID: t.string({ description: providerInputFields.entityID }),
    certificate: t.string({ description: providerInputFields.certificate }),
    ssoURL: t.string({ description: providerInputFields.ssoURL }),
    defaultTeam: t.string({ description: providerInputFields.defaultTeam }),
    defaultRole: t.field({ type: RoleEnum, description: "Role of new SSO members; null makes them guests." }),
  }),
});

builder.mutationFields((t) => {
  const providerArgs = { organizationId: t.arg.id({ required: true }), samlProviderId: t.arg.id({ required: true }) };
  return {
    createOrganizationSAMLProvider: t.field({
      type: SamlProviderRef,
      args: {
        organizationId: t.arg.id({ required: true }),
        input: t.arg({ type: CreateSamlProviderInput, required: true }),
      },
      resolve: (_root, args, ctx) => createProvider(ctx, String(args.organizationId), args.input),
    }),
    updateOrganizationSAMLProvider: t.field({
      type: SamlProviderRef,
      args: { ...providerArgs, input: t.arg({ type: UpdateSamlProviderInput, required: true }) },
      resolve: (_root, args, ctx) =>
        updateProvider(ctx, String(args.organizationId), String(args.samlProviderId), args.input),
    }),
    deleteOrganizationSAMLProvider: t.boolean({
      description: "Deleting a provider that does not exist succeeds.",
      args: providerArgs,
      resolve: async (_root, args, ctx) => {
        await deleteProvider(ctx, String(args.organizationId), String(args.samlProviderId));
        return true;
      },
    }),
  };
});
