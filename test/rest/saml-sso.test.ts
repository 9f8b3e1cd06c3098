import { inflateRawSync } from "node:zlib";
import { GitBookAPI } from "@gitbook/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { expectMatchesSpec } from "../helpers/contract.ts";
import { makeSigningIdentity, type SigningIdentity, signedSamlResponse } from "../helpers/saml-idp.ts";

interface ProviderBody {
  id: string;
  status: string;
  defaultRole: string | null;
  defaultTeam?: { id: string };
  service: { acsURL: string; startURL: string; entityID: string };
}

const idpEntityId = "https://idp.example.com/metadata";
const idpLoginUrl = "https://idp.example.com/sso";

let t: TestApp;
let org: SeededOrganization;
let admin: string;
let idp: SigningIdentity;
let forger: SigningIdentity;
let teamId: string;

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "SSO Org");
  admin = org.members.admin.token;
  idp = makeSigningIdentity("Example IdP");
  forger = makeSigningIdentity("Forger");
  const team = await t.rest<{ id: string }>("PUT", `/orgs/${org.organizationId}/teams`, {
    token: admin,
    body: { title: "SSO newcomers" },
  });
  teamId = team.body.id;
});

const samlPath = (id = "") => `/orgs/${org.organizationId}/saml${id ? `/${id}` : ""}`;

async function createActiveProvider(extra: Record<string, unknown> = {}) {
  const created = await t.rest<ProviderBody>("POST", samlPath(), {
    token: admin,
    body: {
      label: "Example IdP",
      entityID: idpEntityId,
      ssoURL: idpLoginUrl,
      certificate: idp.certificatePem,
      defaultRole: "edit",
      defaultTeam: teamId,
      ...extra,
    },
  });
  expect(created.status).toBe(201);
  return created.body;
}

/** Posts a SAML response to the ACS URL as the browser's auto-submitted form does. */
function postToAcs(provider: ProviderBody, samlResponse: string) {
  return t.app.fetch(
    new Request(provider.service.acsURL, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ SAMLResponse: samlResponse, RelayState: "" }).toString(),
    }),
  );
}

function responseFor(
  provider: ProviderBody,
  email: string,
  options: Partial<Parameters<typeof signedSamlResponse>[1]> = {},
) {
  return signedSamlResponse(idp, {
    idpEntityId,
    audience: provider.service.entityID,
    acsUrl: provider.service.acsURL,
    email,
    displayName: "Grace Hopper",
    ...options,
  });
}

describe("SAML providers", () => {
  it("creates, reads, lists, updates and deletes providers, matching the public spec", async () => {
    const pending = await t.rest<ProviderBody>("POST", samlPath(), { token: admin, body: { label: "Later" } });
    expect(pending.status).toBe(201);
    expect(pending.body).toMatchObject({ object: "saml-provider", status: "pending", defaultRole: null });
    t.clock.advance(1000);

    const active = await createActiveProvider();
    expectMatchesSpec("createOrganizationSAMLProvider", 201, active);
    expect(active).toMatchObject({ status: "active", defaultRole: "edit", defaultTeam: { id: teamId } });
    expect(active.service).toEqual({
      entityID: `http://gateway.test/sso/saml/${active.id}`,
      acsURL: `http://gateway.test/sso/saml/${active.id}/acs`,
      startURL: `http://gateway.test/sso/saml/${active.id}/start`,
    });

    const got = await t.rest("GET", samlPath(active.id), { token: admin });
    expectMatchesSpec("getOrganizationSAMLProviderById", 200, got.body);
    const list = await t.rest<{ items: ProviderBody[] }>("GET", samlPath(), { token: admin });
    expect(list.body.items.map((item) => item.id)).toEqual([pending.body.id, active.id]);
    // A pending provider answers "" for the fields not set yet, which the spec's `format: uri` does not admit.
    expectMatchesSpec("listSAMLProvidersInOrganizationById", 200, { ...list.body, items: [list.body.items[1]] });

    const patched = await t.rest<ProviderBody>("PATCH", samlPath(active.id), {
      token: admin,
      body: { label: "Renamed", defaultRole: null, defaultTeam: null },
    });
    expectMatchesSpec("updateOrganizationSAMLProvider", 200, patched.body);
    expect(patched.body).toMatchObject({ label: "Renamed", defaultRole: null });
    expect(patched.body.defaultTeam).toBeUndefined();

    for (let i = 0; i < 2; i++) {
      const deleted = await t.rest("DELETE", samlPath(pending.body.id), { token: admin });
      expect(deleted.status).toBe(204);
      expectMatchesSpec("deleteOrganizationSAMLProvider", 204, deleted.body);
    }
    expect((await t.rest("GET", samlPath(pending.body.id), { token: admin })).status).toBe(404);
    await t.rest("DELETE", samlPath(active.id), { token: admin });
  });

  it("reads every listed provider's default team in one statement, checking nothing it has not read", async () => {
    const providers = [
      await createActiveProvider({ label: "Team A" }),
      await createActiveProvider({ label: "Team B" }),
    ];
    const client = t.graphql(admin);
    const list = async (withTeam: boolean) => {
      const before = t.db.statementCount();
      const data = await client.request<{
        organization: { samlProviders: { nodes: { id: string; defaultTeam?: { id: string } | null }[] } };
      }>(
        `query ($id: ID!) { organization(id: $id) { samlProviders(first: 50) { nodes { id ${withTeam ? "defaultTeam { id }" : ""} } } } }`,
        { id: org.organizationId },
      );
      return { nodes: data.organization.samlProviders.nodes, count: t.db.statementCount() - before };
    };
    const without = await list(false);
    const withTeam = await list(true);
    expect(withTeam.count - without.count).toBe(1);
    const listed = withTeam.nodes.filter((node) => providers.some((provider) => provider.id === node.id));
    expect(listed.map((node) => node.defaultTeam)).toEqual([{ id: teamId }, { id: teamId }]);
    for (const provider of providers) await t.rest("DELETE", samlPath(provider.id), { token: admin });
  });

  it("validates certificates, URLs, lengths and the default team", async () => {
    const other = await seedOrganization(t.db, "Other SSO Org");
    const foreignTeam = await t.rest<{ id: string }>("PUT", `/orgs/${other.organizationId}/teams`, {
      token: other.members.admin.token,
      body: { title: "Foreign" },
    });
    const bad = [
      {},
      { label: "" },
      { label: "x".repeat(31) },
      { label: "ok", certificate: "not a certificate" },
      { label: "ok", certificate: "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----" },
      { label: "ok", certificate: "x".repeat(10001) },
      { label: "ok", ssoURL: "not a url" },
      { label: "ok", ssoURL: "javascript:alert(1)" },
      { label: "ok", entityID: "x".repeat(1025) },
      { label: "ok", defaultTeam: foreignTeam.body.id },
      { label: "ok", defaultRole: "owner" },
      { label: "ok", unknown: true },
    ];
    for (const body of bad) {
      const response = await t.rest("POST", samlPath(), { token: admin, body });
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(response.body).toMatchObject({ error: { code: 400 } });
    }
    expect((await t.rest("POST", samlPath(), { token: org.members.create.token, body: { label: "x" } })).status).toBe(
      403,
    );
    expect((await t.rest("GET", samlPath(), { token: other.members.admin.token })).status).toBe(404);
    expect((await t.rest("GET", samlPath("saml_missing"), { token: admin })).status).toBe(404);
  });

  it("lists the active providers' login options without a token", async () => {
    const active = await createActiveProvider({ label: "Login option" });
    await t.rest("POST", samlPath(), { token: admin, body: { label: "Not ready" } });
    const options = await t.rest<{ items: { id: string; label: string; startURL: string }[] }>(
      "GET",
      `/orgs/${org.organizationId}/sso`,
    );
    expect(options.status).toBe(200);
    expectMatchesSpec("listSSOProviderLoginsInOrganization", 200, options.body);
    expect(options.body.items).toContainEqual({
      id: active.id,
      label: "Login option",
      startURL: active.service.startURL,
    });
    expect(options.body.items.map((item) => item.label)).not.toContain("Not ready");
    expect((await t.rest("GET", "/orgs/org_missing/sso")).status).toBe(404);
  });
});

describe("SAML login", () => {
  it("redirects the start URL to the identity provider with an AuthnRequest", async () => {
    const provider = await createActiveProvider();
    const response = await t.app.fetch(new Request(provider.service.startURL, { redirect: "manual" }));
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get("location") ?? "");
    expect(`${location.origin}${location.pathname}`).toBe(idpLoginUrl);
    const request = inflateRawSync(Buffer.from(location.searchParams.get("SAMLRequest") ?? "", "base64")).toString();
    expect(request).toContain("AuthnRequest");
    expect(request).toContain(`AssertionConsumerServiceURL="${provider.service.acsURL}"`);
    expect(request).toContain(provider.service.entityID);
  });

  it("creates a member from a signed response, with the provider's role and team, and a working token", async () => {
    const provider = await createActiveProvider();
    const email = `grace-${Date.now()}@idp.example.com`;
    const samlResponse = responseFor(provider, email);
    const response = await postToAcs(provider, samlResponse);
    expect(response.status).toBe(200);
    const session = (await response.json()) as { token: string; user: string; organization: string };
    expect(session.organization).toBe(org.organizationId);

    const member = await t.rest<{ role: string; sso: boolean; user: { email: string; displayName: string } }>(
      "GET",
      `/orgs/${org.organizationId}/members/${session.user}`,
      { token: session.token },
    );
    expect(member.status).toBe(200);
    expect(member.body).toMatchObject({ role: "edit", sso: true, user: { email, displayName: "Grace Hopper" } });
    const teams = await t.rest<{ items: { team: { id: string } }[] }>(
      "GET",
      `/orgs/${org.organizationId}/members/${session.user}/teams`,
      { token: session.token },
    );
    expect(teams.body.items.map((item) => item.team.id)).toEqual([teamId]);

    // The same response again is a replay.
    const replay = await postToAcs(provider, samlResponse);
    expect(replay.status).toBe(401);
    expect(await replay.json()).toMatchObject({ error: { code: 401, message: expect.stringMatching(/already used/) } });

    // A later login of the same person keeps their membership.
    const again = await postToAcs(provider, responseFor(provider, email));
    expect(again.status).toBe(200);
    expect(
      await t.db.prisma.member.count({ where: { organizationId: org.organizationId, userId: session.user } }),
    ).toBe(1);
  });

  it("refuses forged, tampered, expired, not-yet-valid and foreign-audience responses", async () => {
    const provider = await createActiveProvider();
    const email = `mallory-${Date.now()}@idp.example.com`;
    const forged = signedSamlResponse(forger, {
      idpEntityId,
      audience: provider.service.entityID,
      acsUrl: provider.service.acsURL,
      email,
    });
    const tampered = Buffer.from(
      Buffer.from(responseFor(provider, `someone-${Date.now()}@idp.example.com`), "base64")
        .toString()
        .replace(/someone-\d+@idp\.example\.com/, email),
    ).toString("base64");
    const refused: [string, RegExp][] = [
      [forged, /Invalid signature/],
      [tampered, /Invalid signature/],
      [responseFor(provider, email, { notBeforeMs: -20 * 60_000, notOnOrAfterMs: -10 * 60_000 }), /expired/],
      [responseFor(provider, email, { notBeforeMs: 10 * 60_000, notOnOrAfterMs: 20 * 60_000 }), /not yet valid/],
      [responseFor(provider, email, { audience: "https://another-service.example.com" }), /audience mismatch/],
      [responseFor(provider, email, { idpEntityId: "https://evil.example.com" }), /issuer is not this provider/],
      ["bm90IHhtbA==", /Not a valid XML document/],
    ];
    for (const [samlResponse, reason] of refused) {
      const response = await postToAcs(provider, samlResponse);
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ error: { code: 401, message: expect.stringMatching(reason) } });
    }
    expect(await t.db.prisma.user.count({ where: { email } })).toBe(0);
    const empty = await t.app.fetch(new Request(provider.service.acsURL, { method: "POST" }));
    expect(empty.status).toBe(400);
    const pending = await t.rest<ProviderBody>("POST", samlPath(), { token: admin, body: { label: "Pending" } });
    expect((await postToAcs(pending.body, forged)).status).toBe(400);
    expect((await t.app.fetch(new Request("http://gateway.test/sso/saml/saml_missing/start"))).status).toBe(404);
  });
});

describe("organizations that enforce SSO", () => {
  it("refuses members who did not sign in through SSO, except admins, until they are SSO members", async () => {
    const enforced = await seedOrganization(t.db, "Enforced");
    const orgPath = `/orgs/${enforced.organizationId}`;
    const adminToken = enforced.members.admin.token;
    const reader = enforced.members.read;
    expect((await t.rest("GET", orgPath, { token: reader.token })).status).toBe(200);
    expect((await t.rest("PATCH", orgPath, { token: adminToken, body: { sso: true } })).status).toBe(200);

    const refused = await t.rest("GET", orgPath, { token: reader.token });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: { code: 403, message: expect.stringMatching(/single sign-on/) } });
    expect((await t.rest("GET", orgPath, { token: adminToken })).status).toBe(200);

    const marked = await t.rest("POST", `${orgPath}/members/${reader.id}/sso`, { token: adminToken });
    expectMatchesSpec("setUserAsSSOMemberForOrganization", 200, marked.body);
    expect(marked.body).toMatchObject({ sso: true });
    expect((await t.rest("GET", orgPath, { token: reader.token })).status).toBe(200);
  });
});

describe("SAML providers through the official client", () => {
  it("drives every SSO operation", async () => {
    const server = await listen(t.app);
    afterAll(() => server.close());
    const api = new GitBookAPI({ endpoint: server.url, authToken: admin });
    const orgId = org.organizationId;
    const created = await api.orgs.createOrganizationSamlProvider(orgId, {
      label: "Client IdP",
      entityID: idpEntityId,
      ssoURL: idpLoginUrl,
      certificate: idp.certificatePem,
      defaultRole: null,
    });
    expect(created.status).toBe(201);
    const id = created.data.id;
    const list = await api.orgs.listSamlProvidersInOrganizationById(orgId);
    expect(list.data.items.map((item) => item.id)).toContain(id);
    expect((await api.orgs.getOrganizationSamlProviderById(orgId, id)).data.label).toBe("Client IdP");
    const updated = await api.orgs.updateOrganizationSamlProvider(orgId, id, { label: "Client IdP 2" });
    expect(updated.data.label).toBe("Client IdP 2");
    const logins = await api.orgs.listSsoProviderLoginsInOrganization(orgId);
    expect(logins.data.items.map((item) => item.id)).toContain(id);
    const member = await api.orgs.setUserAsSsoMemberForOrganization(orgId, org.members.comment.id);
    expect(member.data.sso).toBe(true);
    expect((await api.orgs.deleteOrganizationSamlProvider(orgId, id)).status).toBe(204);
  });
});
