import { insertOrganization } from "../../src/modules/organization/organization.service.ts";
import { addMember } from "../../src/modules/user/user.service.ts";
import { pairIdOf } from "../../src/platform/ids.ts";
import { type SeededOrganization, type SeededUser, seedOrganization, seedUser, type TestApp } from "../helpers/app.ts";
import { adaptiveSchema, type Caller, memberRoles, type TargetIds } from "./authorization-matrix.ts";

/** Planted in every title of the foreign organization: no response to an outsider may contain it. */
const foreignMarker = "ZQXFOREIGNMARKER";

export interface SecurityFixture {
  own: SeededOrganization;
  /** The `guest` caller: role null, granted `read` on the own organization's `otherSpaceId` only. */
  guest: SeededUser;
  /** The `memberWithoutGrant` caller: organization `read`, no grant on the own organization's private spaces. */
  memberWithoutGrant: SeededUser;
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

/** A small valid OpenAPI 3 document titled with the organization's label. */
function openApiText(label: string): string {
  return JSON.stringify({
    openapi: "3.0.3",
    info: { title: `${label} API`, version: "1.0.0" },
    paths: { "/ping": { get: { summary: `${label} ping`, responses: { "200": { description: `${label} pong` } } } } },
  });
}

const markdownBody = (text: string) => ({ body: { markdown: text } });

/** In a space: a change request, a comment with a reply, and a comment with a reply on the change request. */
async function seedDiscussions(t: TestApp, token: string, spaceId: string, label: string) {
  const changeRequests = `/spaces/${spaceId}/change-requests`;
  const changeRequestId = await created(t, token, "POST", changeRequests, { subject: `${label} change` });
  const changeRequest = `${changeRequests}/${changeRequestId}`;
  const commentId = await created(t, token, "POST", `/spaces/${spaceId}/comments`, markdownBody(`${label} comment`));
  const commentReplyId = await created(
    t,
    token,
    "POST",
    `/spaces/${spaceId}/comments/${commentId}/replies`,
    markdownBody(`${label} reply`),
  );
  const changeRequestCommentId = await created(
    t,
    token,
    "POST",
    `${changeRequest}/comments`,
    markdownBody(`${label} change comment`),
  );
  const changeRequestCommentReplyId = await created(
    t,
    token,
    "POST",
    `${changeRequest}/comments/${changeRequestCommentId}/replies`,
    markdownBody(`${label} change reply`),
  );
  return { changeRequestId, commentId, commentReplyId, changeRequestCommentId, changeRequestCommentReplyId };
}

/**
 * One organization's objects: spaces, a collection, a team, an invite, agent instructions, a published share-link
 * site with a section, a group, a site space and a share link; in the first space a page, a file and its
 * discussions, the change request with a review and a requested reviewer; a soft-deleted space with discussions of
 * its own; a translation, an OpenAPI spec with a processed version (and its finished job) and a SAML provider.
 * `label` goes into every title and text.
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
  const deletedDiscussions = await seedDiscussions(t, token, deletedSpaceId, `${label} deleted`);
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

  const content = await ok(t, token, "POST", `/spaces/${spaceId}/content`, {
    changes: [
      { type: "insert", page: { title: `${label} page`, markdown: `${label} page text\n` } },
      {
        type: "insert",
        file: {
          name: `${label}.txt`,
          contentType: "text/plain",
          content: Buffer.from(`${label} file`).toString("base64"),
        },
      },
    ],
  });
  const inserted = (content.body as { inserted?: { type: string; id: string }[] }).inserted ?? [];
  const insertedId = (type: string) => {
    const found = inserted.find((entry) => entry.type === type);
    if (!found) throw new Error(`fixture content: no ${type} in ${JSON.stringify(content.body)}`);
    return found.id;
  };
  const revisionId = (content.body as { revision?: string }).revision;
  if (!revisionId) throw new Error(`fixture content: no revision in ${JSON.stringify(content.body)}`);
  const pageId = insertedId("page");
  const fileId = insertedId("file");
  // A Git repository set up on the space (the queued import never runs here), so that its Git info exists.
  await ok(t, token, "POST", `/spaces/${spaceId}/git/import`, {
    url: `file:///nonexistent/${encodeURIComponent(label)}.git`,
    ref: "refs/heads/main",
  });

  const discussions = await seedDiscussions(t, token, spaceId, label);
  const changeRequest = `/spaces/${spaceId}/change-requests/${discussions.changeRequestId}`;
  const reviewId = await created(t, token, "POST", `${changeRequest}/reviews`, { status: "changes-requested" });
  await ok(t, token, "POST", `${changeRequest}/requested-reviewers`, { users: [target.id] });

  const translationId = await created(t, token, "POST", `${org}/translations`, {
    source: { space: spaceId, language: "en" },
    language: "fr",
    instructions: {
      object: "document",
      data: {},
      nodes: [
        {
          object: "block",
          type: "paragraph",
          nodes: [{ object: "text", leaves: [{ object: "leaf", text: `${label} translation` }] }],
        },
      ],
    },
  });

  const specSlug = `${label}-spec`;
  const specId = await created(t, token, "POST", `${org}/openapi`, {
    slug: specSlug,
    source: { text: openApiText(label) },
  });
  await t.runJobs();
  const latest = await ok(t, token, "GET", `${org}/openapi/${specSlug}/versions/latest`);
  const versionId = (latest.body as { id?: string }).id;
  if (!versionId) throw new Error(`fixture OpenAPI version: ${JSON.stringify(latest.body)}`);

  // Pending (no certificate): an active provider's label is shown on the open sign-in options by design.
  const samlProviderId = await created(t, token, "POST", `${org}/saml`, { label: `${label} saml` });

  const job = await t.db.prisma.job.findFirstOrThrow({ where: { organizationId } });
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
    revisionId,
    pageId,
    fileId,
    ...discussions,
    reviewId,
    translationId,
    specSlug,
    specId,
    versionId,
    samlProviderId,
    jobId: job.id,
    memberId: pairIdOf("Member", organizationId, target.id),
    teamMemberId: pairIdOf("OrganizationTeamMember", teamId, target.id),
    memberTeamId: pairIdOf("MemberTeam", target.id, teamId),
    requestedReviewerId: pairIdOf("ChangeRequestRequestedReviewer", discussions.changeRequestId, target.id),
    revisionPageId: pairIdOf("RevisionPage", revisionId, pageId),
    revisionFileId: pairIdOf("RevisionFile", revisionId, fileId),
  };
  return { ids, deleted: { spaceId: deletedSpaceId, ...deletedDiscussions }, shareKey, siteSpaceSpaceId };
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

  // The target space and the site's sited space become private (defaultLevel null): each role member keeps their
  // role through a grant, the member without a grant reads neither. The guest gets `read` on the other space only.
  const adminToken = own.members.admin.token;
  for (const spaceId of [ownIds.spaceId, ownBuilt.siteSpaceSpaceId]) {
    await ok(t, adminToken, "PATCH", `/spaces/${spaceId}`, { defaultLevel: null });
    for (const role of memberRoles.filter((role) => role !== "admin")) {
      await ok(t, adminToken, "POST", `/spaces/${spaceId}/permissions`, { role, users: [own.members[role].id] });
    }
  }
  // The target member holds a grant on the private space: listing their spaces must not show it to others.
  await ok(t, adminToken, "POST", `/spaces/${ownIds.spaceId}/permissions`, { role: "read", users: [ownIds.userId] });
  const guest = await seedUser(t.db, "guest-caller");
  await addMember(t.db.prisma, own.organizationId, guest.id, null, new Date());
  await ok(t, adminToken, "POST", `/spaces/${ownIds.otherSpaceId}/permissions`, { role: "read", users: [guest.id] });
  const memberWithoutGrant = await seedUser(t.db, "without-grant");
  await addMember(t.db.prisma, own.organizationId, memberWithoutGrant.id, "read", new Date());

  const foreignIds = { ...foreignBuilt.ids, otherOrganizationId: own.organizationId, emailDomain: "foreign.test" };
  return {
    own,
    guest,
    memberWithoutGrant,
    foreignAdmin,
    revoked,
    ownShareKey: ownBuilt.shareKey,
    foreignShareKey: foreignBuilt.shareKey,
    targets: { own: ownIds, foreign: foreignIds, deleted: { ...ownIds, ...ownBuilt.deleted } },
    tokenOf(caller) {
      if (caller === "noToken" || caller === "shareLinkVisitor") return undefined;
      if (caller === "revokedToken") return revoked.token;
      if (caller === "otherOrganizationAdmin") return foreignAdmin.token;
      if (caller === "guest") return guest.token;
      if (caller === "memberWithoutGrant") return memberWithoutGrant.token;
      return own.members[caller].token;
    },
    foreignSecrets: [foreignMarker, foreignBuilt.shareKey, foreignAdmin.token, foreignTarget.token],
  };
}
