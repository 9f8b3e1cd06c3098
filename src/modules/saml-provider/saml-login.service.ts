import type { CacheProvider, Profile, SAML } from "@node-saml/node-saml";
import type { SamlProvider } from "../../db/generated/client.ts";
import { InvalidInputError, NotFoundError, UnauthenticatedError } from "../../lib/errors.ts";
import type { RequestContext } from "../../request/context.ts";
import { createApiToken, createUser } from "../user/user.public.ts";
import { providerStatus, serviceEndpoints } from "./saml-provider.service.ts";

/** How long the API token handed out by a SAML login stays valid. */
const sessionMs = 7 * 24 * 60 * 60 * 1000;
/** Assertions without NotOnOrAfter are remembered this long for replay protection. */
const defaultAssertionLifetimeMs = 60 * 60 * 1000;
/** Tolerated clock difference with the identity provider. */
const clockSkewMs = 60 * 1000;

// Replay protection is ours (assertion ids in the database); requests are not tracked, so IdP-initiated logins work
// and node-saml's in-memory cache (per process, with its own timer) stays unused.
const noRequestCache: CacheProvider = {
  saveAsync: async () => null,
  getAsync: async () => null,
  removeAsync: async () => null,
};

async function activeProvider(ctx: RequestContext, providerId: string): Promise<SamlProvider> {
  const provider = await ctx.prisma.samlProvider.findUnique({ where: { id: providerId } });
  if (!provider) throw new NotFoundError(`SAML provider ${providerId} not found`);
  if (providerStatus(provider) !== "active") {
    throw new InvalidInputError("This SAML provider is not configured yet (entityID, ssoURL and certificate)");
  }
  return provider;
}

/** node-saml (and its XML signature stack) loads on the first SAML login. */
async function samlFor(ctx: RequestContext, provider: SamlProvider): Promise<SAML> {
  const { SAML } = await import("@node-saml/node-saml");
  const service = serviceEndpoints(ctx, provider);
  return new SAML({
    callbackUrl: service.acsURL,
    entryPoint: provider.ssoURL,
    issuer: service.entityID,
    audience: service.entityID,
    idpCert: provider.certificate,
    idpIssuer: provider.entityID,
    wantAssertionsSigned: true,
    // Identity providers sign the assertion, the response, or both: the assertion's signature is what we require.
    wantAuthnResponseSigned: false,
    acceptedClockSkewMs: clockSkewMs,
    cacheProvider: noRequestCache,
  });
}

/** The start URL: where to send the browser, the identity provider's login URL with a SAML AuthnRequest. */
export async function samlLoginRedirect(ctx: RequestContext, providerId: string): Promise<string> {
  const provider = await activeProvider(ctx, providerId);
  return (await samlFor(ctx, provider)).getAuthorizeUrlAsync("", undefined, {});
}

interface VerifiedLogin {
  email: string;
  displayName: string;
  assertionId: string;
  expiresAt: Date;
}

function attribute(profile: Profile, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = profile[name] ?? (profile.attributes as Record<string, unknown> | undefined)?.[name];
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === "string" && first.trim()) return first.trim();
  }
  return undefined;
}

async function verifyResponse(ctx: RequestContext, provider: SamlProvider, samlResponse: string) {
  let profile: Profile | null;
  try {
    ({ profile } = await (await samlFor(ctx, provider)).validatePostResponseAsync({ SAMLResponse: samlResponse }));
  } catch (error) {
    throw new UnauthenticatedError(`SAML response refused: ${(error as Error).message}`);
  }
  if (!profile) throw new UnauthenticatedError("SAML response refused: it carries no assertion");
  if (profile.issuer !== provider.entityID) {
    throw new UnauthenticatedError("SAML response refused: the assertion's issuer is not this provider");
  }
  const assertion = profile.getAssertion?.() as
    | { Assertion?: { $?: { ID?: string }; Conditions?: { $?: { NotOnOrAfter?: string } }[] } }
    | undefined;
  const assertionId = assertion?.Assertion?.$?.ID;
  if (!assertionId) throw new UnauthenticatedError("SAML response refused: the assertion has no ID");
  const notOnOrAfter = assertion?.Assertion?.Conditions?.[0]?.$?.NotOnOrAfter;
  const email = attribute(profile, "email", "mail", "emailAddress") ?? profile.nameID;
  if (!email || !/^[^@\s]+@[^@\s]+$/.test(email)) {
    throw new UnauthenticatedError("SAML response refused: no email address (NameID or an email attribute)");
  }
  const displayName =
    attribute(profile, "displayName", "name", "http://schemas.microsoft.com/identity/claims/displayname") ??
    [attribute(profile, "firstName", "givenName"), attribute(profile, "lastName", "surname")].filter(Boolean).join(" ");
  return {
    email: email.toLowerCase(),
    displayName: displayName || email.split("@")[0] || email,
    assertionId,
    expiresAt: notOnOrAfter
      ? new Date(new Date(notOnOrAfter).getTime() + clockSkewMs)
      : new Date(ctx.clock.now().getTime() + defaultAssertionLifetimeMs),
  } satisfies VerifiedLogin;
}

export interface SamlSession {
  token: string;
  expiresAt: Date;
  userId: string;
  organizationId: string;
}

/**
 * The ACS endpoint: verifies the signed response (signature against the provider's certificate, audience, time
 * window, issuer), refuses an assertion id already used, then finds or creates the user, makes them an SSO member
 * with the provider's default role and team (existing members keep their role), and issues an API token.
 */
export async function completeSamlLogin(
  ctx: RequestContext,
  providerId: string,
  samlResponse: string | undefined,
): Promise<SamlSession> {
  if (!samlResponse) throw new InvalidInputError("SAMLResponse is required (an HTTP-POST binding form field)");
  const provider = await activeProvider(ctx, providerId);
  const login = await verifyResponse(ctx, provider, samlResponse);
  const now = ctx.clock.now();
  return ctx.prisma.$transaction(async (tx) => {
    await tx.samlAssertion.deleteMany({ where: { expiresAt: { lt: now } } });
    const used = await tx.samlAssertion.createMany({
      data: [{ providerId, assertionId: login.assertionId, expiresAt: login.expiresAt }],
      skipDuplicates: true,
    });
    if (used.count === 0) throw new UnauthenticatedError("SAML response refused: this assertion was already used");

    const user =
      (await tx.user.findUnique({ where: { email: login.email } })) ??
      (await createUser(tx, { email: login.email, displayName: login.displayName.slice(0, 100) }));
    const organizationId = provider.organizationId;
    const key = { organizationId_userId: { organizationId, userId: user.id } };
    const member = await tx.member.findUnique({ where: key });
    if (member) {
      await tx.member.update({ where: key, data: { sso: true } });
    } else {
      await tx.member.create({
        data: { organizationId, userId: user.id, role: provider.defaultRole, sso: true, joinedAt: now },
      });
    }
    if (provider.defaultTeamId) {
      await tx.teamMember.createMany({
        data: [{ teamId: provider.defaultTeamId, userId: user.id, organizationId, createdAt: now }],
        skipDuplicates: true,
      });
    }
    const expiresAt = new Date(now.getTime() + sessionMs);
    const { token } = await createApiToken(tx, user.id, { label: `SAML sign-in (${provider.label})`, expiresAt });
    return { token, expiresAt, userId: user.id, organizationId };
  });
}
