import { insertOrganization } from "../../src/modules/organization/organization.service.ts";
import { addMember } from "../../src/modules/user/user.service.ts";
import { type SeededOrganization, type SeededUser, seedOrganization, seedUser, type TestApp } from "../helpers/app.ts";
import { adaptiveSchema, type Caller, type TargetIds } from "./authorization-matrix.ts";

/** Planted in every title of the foreign organization: no response to an outsider may contain it. */
export const foreignMarker = "ZQXFOREIGNMARKER";

export interface SecurityFixture {
  own: SeededOrganization;
  /** Admin of the foreign organization (the `otherOrganizationAdmin` caller). */
  foreignAdmin: SeededUser;
  revoked: SeededUser;
  ownShareKey: string;
  foreignShareKey: string;
  targets: { own: TargetIds; foreign: TargetIds; deleted: TargetIds };
  /** The caller's token (none for `noToken` and `shareLinkVisitor`). */
  tokenOf(caller: Caller): string | undefined;
  /** Every secret and marker of the foreign organization. */
  foreignSecrets: string[];
}

async function created(t: TestApp, token: string, method: string, path: string, body: unknown): Promise<string> {
  const response = await t.rest<{ id?: string }>(method, path, { token, body });
  if (response.status >= 300 || !response.body?.id) {
    throw new Error(`fixture ${method} ${path}: ${response.status} ${JSON.stringify(response.body)}`);
  }
  return response.body.id;
}

async function ok(t: TestApp, token: string, method: string, path: string, body?: unknown) {
  const response = await t.rest(method, path, { token, body });
  if (response.status >= 300)
    throw new Error(`fixture ${method} ${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return response;
}

/**
 * One organization's objects: spaces, a collection, a team, an invite, agent instructions, and a published
 * share-link site with a section, a group, a site space and a share link. `label` goes into every title.
 */
async function buildOrganization(
  t: TestApp,
  organizationId: string,
  admin: SeededUser,
  target: SeededUser,
  label: string,
) {
  const org = `/orgs/${organizationId}`;
  const token = admin.token;
  await ok(t, token, "PATCH", org, { inviteLinks: true });
  await ok(t, token, "PUT", `${org}/agent-instructions`, {
    instructions: {
      object: "document",
      nodes: [
        {
          object: "block",
          type: "paragraph",
          nodes: [{ object: "text", leaves: [{ object: "leaf", text: `${label} instructions` }] }],
        },
      ],
    },
  });
  const teamId = await created(t, token, "PUT", `${org}/teams`, { title: `${label} team` });
  await ok(t, token, "PUT", `${org}/teams/${teamId}/members/${target.id}`, { role: "member" });
  const inviteId = await created(t, token, "POST", `${org}/link-invites`, { role: "read" });
  const spaceId = await created(t, token, "POST", `${org}/spaces`, { title: `${label} space` });
  const otherSpaceId = await created(t, token, "POST", `${org}/spaces`, { title: `${label} other` });
  const siteSpaceSpaceId = await created(t, token, "POST", `${org}/spaces`, { title: `${label} sited` });
  const deletedSpaceId = await created(t, token, "POST", `${org}/spaces`, { title: `${label} deleted` });
  await ok(t, token, "DELETE", `/spaces/${deletedSpaceId}`);
  const collectionId = await created(t, token, "POST", `${org}/collections`, { title: `${label} collection` });
  const siteId = await created(t, token, "POST", `${org}/sites`, { title: `${label} site` });
  const site = `${org}/sites/${siteId}`;
  await ok(t, token, "PATCH", site, { visibility: "share-link" });
  await ok(t, token, "PUT", `${site}/adaptive-schema`, { jsonSchema: adaptiveSchema(label) });
  const siteSectionId = await created(t, token, "POST", `${site}/sections`, { spaceId, title: `${label} section` });
  const siteSpaceId = await created(t, token, "POST", `${site}/site-spaces`, {
    spaceId: siteSpaceSpaceId,
    sectionId: siteSectionId,
  });
  const siteSectionGroupId = await created(t, token, "POST", `${site}/section-groups`, { title: `${label} group` });
  await ok(t, token, "POST", `${site}/publish`);
  const link = await t.rest<{ id: string; key?: string; urls?: { published?: string } }>(
    "POST",
    `${site}/share-links`,
    {
      token,
      body: { name: `${label} link` },
    },
  );
  const shareKey = new URL(link.body.urls?.published as string).searchParams.get("shareKey") as string;
  const apiToken = await t.db.prisma.apiToken.findFirstOrThrow({ where: { userId: target.id } });
  const ids: TargetIds = {
    organizationId,
    otherOrganizationId: "",
    userId: target.id,
    teamId,
    inviteId,
    spaceId,
    collectionId,
    siteId,
    shareLinkId: link.body.id,
    siteSectionId,
    siteSectionGroupId,
    siteSpaceId,
    otherSpaceId,
    emailDomain: "",
    apiTokenId: apiToken.id,
  };
  return { ids, deletedSpaceId, shareKey };
}

export async function buildSecurityFixture(t: TestApp): Promise<SecurityFixture> {
  const own = await seedOrganization(t.db, "Own organization");
  const revoked = await seedUser(t.db, "revoked");
  await addMember(t.db.prisma, own.organizationId, revoked.id, "admin", new Date());
  await t.db.prisma.apiToken.updateMany({ where: { userId: revoked.id }, data: { revokedAt: new Date() } });

  const foreignOrganization = await insertOrganization(
    t.db.prisma,
    { title: `${foreignMarker} organization`, emailDomains: ["foreign.test"] },
    new Date(),
  );
  const foreignAdmin = await seedUser(t.db, "foreign-admin");
  await addMember(t.db.prisma, foreignOrganization.id, foreignAdmin.id, "admin", new Date());
  const foreignTarget = await seedUser(t.db, "foreign-target");
  await addMember(t.db.prisma, foreignOrganization.id, foreignTarget.id, "read", new Date());

  const ownBuilt = await buildOrganization(t, own.organizationId, own.members.admin, own.members.guest, "Own");
  const foreignBuilt = await buildOrganization(t, foreignOrganization.id, foreignAdmin, foreignTarget, foreignMarker);
  const ownIds = { ...ownBuilt.ids, otherOrganizationId: foreignOrganization.id, emailDomain: "seed.test" };
  const foreignIds = { ...foreignBuilt.ids, otherOrganizationId: own.organizationId, emailDomain: "foreign.test" };
  return {
    own,
    foreignAdmin,
    revoked,
    ownShareKey: ownBuilt.shareKey,
    foreignShareKey: foreignBuilt.shareKey,
    targets: { own: ownIds, foreign: foreignIds, deleted: { ...ownIds, spaceId: ownBuilt.deletedSpaceId } },
    tokenOf(caller) {
      if (caller === "noToken" || caller === "shareLinkVisitor") return undefined;
      if (caller === "revokedToken") return revoked.token;
      if (caller === "otherOrganizationAdmin") return foreignAdmin.token;
      return own.members[caller].token;
    },
    foreignSecrets: [foreignMarker, foreignBuilt.shareKey, foreignAdmin.token, foreignTarget.token],
  };
}
