/**
 * The authorization matrix: for every `/v1` route and every GraphQL root field, which callers are allowed.
 * test/security/authorization-matrix.test.ts runs every row for every caller against objects of the caller's own
 * organization, of another organization and soft-deleted ones, and fails on any allow the row does not list. It
 * also fails when a route or root field has no row: add one here with every new route or field.
 *
 * A row lists the callers allowed on the own organization's objects (`own`); nobody is allowed on another
 * organization's objects (`foreign`) or on a soft-deleted space (`deleted`) unless the row says so.
 */

import type { EventBus } from "../../src/events/bus.ts";

export const memberRoles = ["read", "comment", "edit", "review", "create", "admin"] as const;
type MemberRole = (typeof memberRoles)[number];

export type Caller =
  | "noToken"
  | "revokedToken"
  | MemberRole
  /** Admin of another organization, with the same email domain (so `join` by domain is open to them). */
  | "otherOrganizationAdmin"
  /** No token, with the `shareKey` of an active share link of the own organization's published share-link site. */
  | "shareLinkVisitor"
  /** A member with role null (a guest), granted `read` on one space only: not the fixture's spaces named in paths. */
  | "guest"
  /** A `read` member with no grant on the fixture's private spaces (the target space and the site's sited space). */
  | "memberWithoutGrant";

export const callers: readonly Caller[] = [
  "noToken",
  "revokedToken",
  ...memberRoles,
  "otherOrganizationAdmin",
  "shareLinkVisitor",
  "guest",
  "memberWithoutGrant",
];

/** The ids a row's path, body or variables may use; each target (own, foreign, deleted) has its own. */
export interface TargetIds {
  organizationId: string;
  /** Another organization the caller administers (transfer target). */
  otherOrganizationId: string;
  userId: string;
  teamId: string;
  inviteId: string;
  spaceId: string;
  collectionId: string;
  siteId: string;
  shareLinkId: string;
  siteSectionId: string;
  siteSectionGroupId: string;
  siteSpaceId: string;
  /** A second space of the organization, for bodies that name one. */
  otherSpaceId: string;
  emailDomain: string;
  /** A token of a member who is not one of the callers. */
  apiTokenId: string;
  /** The space's content revision. */
  revisionId: string;
  /** A page and a file of the space's content (and so of the change request's, opened after them). */
  pageId: string;
  fileId: string;
  /** A change request of the space, with a review and a requested reviewer (the `userId` member). */
  changeRequestId: string;
  reviewId: string;
  /** A comment on the space (outside change requests) and its reply. */
  commentId: string;
  commentReplyId: string;
  /** A comment on the change request and its reply (rows reach them through `params`). */
  changeRequestCommentId: string;
  changeRequestCommentReplyId: string;
  translationId: string;
  /** An OpenAPI spec's slug, its id and its processed version. */
  specSlug: string;
  specId: string;
  versionId: string;
  samlProviderId: string;
  /** A finished job of the organization (the OpenAPI spec's processing). */
  jobId: string;
  /**
   * The `userId` member's membership, team membership and review request, and the page and file as nodes of the
   * space's revision (pair ids).
   */
  memberId: string;
  teamMemberId: string;
  memberTeamId: string;
  requestedReviewerId: string;
  revisionPageId: string;
  revisionFileId: string;
}

export interface MatrixRow {
  own: readonly Caller[];
  foreign?: readonly Caller[];
  deleted?: readonly Caller[];
  /** A valid body, so that a refusal comes from the caller's rights and not from the input. */
  body?: (ids: TargetIds) => unknown;
  /** Path parameters (and variables) filled from another id than the one of their name. */
  params?: Partial<Record<keyof TargetIds, keyof TargetIds>>;
  /** Valid query parameters (REST), also given as the GraphQL variables of the same names. */
  query?: Record<string, string>;
}

export interface GraphQLMatrixRow extends MatrixRow {
  /** Variables are taken from the target's ids by name (`$spaceId`, ...), plus `$input` from `body`. */
  document: string;
}

/**
 * A Subscription root field, run over server-sent events: allowed when its first event carries data. `probe`
 * publishes an event the subscription would receive, for fields that send nothing when they open (so a check
 * never waits on a timer); it runs once the response has opened.
 */
export interface SubscriptionMatrixRow extends GraphQLMatrixRow {
  probe?: (ids: TargetIds, events: EventBus) => Promise<void>;
}

/** A root field reached through a REST route's document: the route's row applies, run over `/graphql`. */
export interface GraphQLViaRoute {
  route: string;
}

/** A valid adaptive schema (one boolean claim). */
export function adaptiveSchema(label: string) {
  return {
    type: "object",
    properties: { beta: { type: "boolean", description: `${label} beta` } },
    additionalProperties: false,
  };
}

const atLeast = (role: MemberRole): Caller[] => memberRoles.slice(memberRoles.indexOf(role));
/** The role members: each has their organization role on the fixture's spaces (a grant of that role). */
const members = atLeast("read");
/** Organization `read` and up, whatever their grants on spaces: what organization-wide reads need. */
const orgReaders: Caller[] = [...members, "memberWithoutGrant"];
/** Every member of the organization, guests included. */
const anyMember: Caller[] = [...orgReaders, "guest"];
const signedIn: Caller[] = [...anyMember, "otherOrganizationAdmin"];
const admin = atLeast("admin");
const nobody: Caller[] = [];

/** A small valid OpenAPI 3 document for spec writes. */
const matrixOpenApiText = JSON.stringify({
  openapi: "3.0.3",
  info: { title: "Matrix API", version: "1.0.0" },
  paths: { "/ping": { get: { responses: { "200": { description: "pong" } } } } },
});

const anyone: Caller[] = ["noToken", "revokedToken", ...signedIn, "shareLinkVisitor"];

const markdownBody = (text: string) => () => ({ body: { markdown: text } });

/**
 * The comment routes of a space or of a change request: read to read, comment to post and reply; editing a
 * message's body is its author's (the fixture's comments and replies are the admin's), deleting it its author's or
 * a space admin's. `params` points `{commentId}` and `{commentReplyId}` at the base's own comment and reply.
 */
function commentRows(base: string, params?: MatrixRow["params"]): Record<string, MatrixRow> {
  const comment = `${base}/comments/{commentId}`;
  const reply = `${comment}/replies/{commentReplyId}`;
  const rows: Record<string, MatrixRow> = {
    [`GET ${base}/comments`]: { own: members },
    [`POST ${base}/comments`]: { own: atLeast("comment"), body: markdownBody("Matrix comment") },
    [`GET ${comment}`]: { own: members },
    [`PUT ${comment}`]: { own: admin, body: markdownBody("Edited comment") },
    [`DELETE ${comment}`]: { own: admin },
    [`GET ${comment}/replies`]: { own: members },
    [`POST ${comment}/replies`]: { own: atLeast("comment"), body: markdownBody("Matrix reply") },
    [`GET ${reply}`]: { own: members },
    [`PUT ${reply}`]: { own: admin, body: markdownBody("Edited reply") },
    [`DELETE ${reply}`]: { own: admin },
    [`GET ${base}/commenters`]: { own: members },
  };
  if (!params) return rows;
  return Object.fromEntries(Object.entries(rows).map(([route, row]) => [route, { ...row, params }]));
}

const changeRequestComment: MatrixRow["params"] = {
  commentId: "changeRequestCommentId",
  commentReplyId: "changeRequestCommentReplyId",
};

/** Keyed by `METHOD /path` exactly as in src/app/rest-routes.ts. */
export const restMatrix: Record<string, MatrixRow> = {
  // Organizations
  "GET /orgs": { own: signedIn },
  "POST /orgs": { own: signedIn, body: () => ({ title: "Matrix created" }) },
  "GET /orgs/{organizationId}": { own: anyMember },
  "PATCH /orgs/{organizationId}": { own: admin, body: () => ({ title: "Renamed" }) },
  // Open to users of a verified email domain of the organization: the own organization's domain is theirs.
  "POST /orgs/{organizationId}/join": { own: signedIn },
  "GET /orgs/{organizationId}/agent-instructions": { own: orgReaders },
  "PUT /orgs/{organizationId}/agent-instructions": {
    own: admin,
    body: () => ({ instructions: { object: "document", nodes: [] } }),
  },
  "GET /email-domains/{emailDomain}/orgs": { own: signedIn },
  "GET /orgs/{organizationId}/link-invites": { own: admin },
  "POST /orgs/{organizationId}/link-invites": { own: admin, body: () => ({ role: "read" }) },
  "GET /orgs/{organizationId}/link-invites/{inviteId}": { own: admin },
  "PATCH /orgs/{organizationId}/link-invites/{inviteId}": { own: admin, body: () => ({ role: "edit" }) },
  "DELETE /orgs/{organizationId}/link-invites/{inviteId}": { own: admin },
  // Anyone signed in who holds the link, while invite links are on (they are on in both organizations).
  "POST /orgs/{organizationId}/invites/{inviteId}": { own: signedIn, foreign: anyMember },
  // Members
  "GET /orgs/{organizationId}/members": { own: orgReaders },
  "GET /orgs/{organizationId}/members/{userId}": { own: orgReaders },
  "PATCH /orgs/{organizationId}/members/{userId}": { own: admin, body: () => ({ role: "comment" }) },
  "DELETE /orgs/{organizationId}/members/{userId}": { own: admin },
  "POST /orgs/{organizationId}/ping": { own: anyMember },
  "POST /orgs/{organizationId}/members/{userId}/sso": { own: admin },
  // Teams
  "GET /orgs/{organizationId}/teams": { own: orgReaders },
  "PUT /orgs/{organizationId}/teams": { own: admin, body: () => ({ title: "Matrix team" }) },
  "GET /orgs/{organizationId}/teams/{teamId}": { own: orgReaders },
  "PATCH /orgs/{organizationId}/teams/{teamId}": { own: admin, body: () => ({ title: "Renamed team" }) },
  "DELETE /orgs/{organizationId}/teams/{teamId}": { own: admin },
  "GET /orgs/{organizationId}/teams/{teamId}/members": { own: orgReaders },
  "PUT /orgs/{organizationId}/teams/{teamId}/members": { own: admin, body: (ids) => ({ add: [ids.userId] }) },
  "PUT /orgs/{organizationId}/teams/{teamId}/members/{userId}": { own: admin, body: () => ({ role: "member" }) },
  "DELETE /orgs/{organizationId}/teams/{teamId}/members/{userId}": { own: admin },
  "GET /orgs/{organizationId}/members/{userId}/teams": { own: orgReaders },
  // Spaces and collections (the fixture space is private, defaultLevel null: each role member has a grant of their
  // role; the guest and the member without a grant have none)
  "GET /spaces/{spaceId}": { own: members },
  "PATCH /spaces/{spaceId}": { own: admin, body: () => ({ title: "Renamed space" }) },
  // Deletes answer 204 to signed-in callers whether or not there is something left to delete.
  "DELETE /spaces/{spaceId}": { own: admin, deleted: signedIn },
  "POST /spaces/{spaceId}/duplicate": { own: atLeast("create") },
  "POST /spaces/{spaceId}/restore": { own: admin, deleted: admin },
  "POST /spaces/{spaceId}/move": { own: admin, body: () => ({ parent: null }) },
  "POST /spaces/{spaceId}/transfer": { own: admin, body: (ids) => ({ organization: ids.otherOrganizationId }) },
  "POST /spaces/{spaceId}/permissions": { own: admin, body: (ids) => ({ role: "read", users: [ids.userId] }) },
  // Lists of spaces and of what is in them: every member, guests included, gets the spaces they may read.
  "GET /orgs/{organizationId}/spaces": { own: anyMember },
  "POST /orgs/{organizationId}/spaces": { own: atLeast("create"), body: () => ({ title: "Matrix space" }) },
  "GET /orgs/{organizationId}/members/{userId}/spaces": { own: orgReaders },
  "GET /orgs/{organizationId}/collections": { own: orgReaders },
  "POST /orgs/{organizationId}/collections": { own: atLeast("create"), body: () => ({ title: "Matrix collection" }) },
  // Sites and their structure
  "GET /orgs/{organizationId}/sites": { own: orgReaders },
  "POST /orgs/{organizationId}/sites": { own: atLeast("create"), body: () => ({ title: "Matrix site" }) },
  "GET /orgs/{organizationId}/sites/{siteId}": { own: orgReaders },
  "PATCH /orgs/{organizationId}/sites/{siteId}": { own: admin, body: () => ({ title: "Renamed site" }) },
  "DELETE /orgs/{organizationId}/sites/{siteId}": { own: admin },
  "POST /orgs/{organizationId}/sites/{siteId}/publish": { own: admin },
  "POST /orgs/{organizationId}/sites/{siteId}/unpublish": { own: admin },
  // Members read the adaptive schema and its condition names (they write conditions); admins change it.
  "GET /orgs/{organizationId}/sites/{siteId}/adaptive-schema": { own: orgReaders },
  "PUT /orgs/{organizationId}/sites/{siteId}/adaptive-schema": {
    own: admin,
    body: () => ({ jsonSchema: adaptiveSchema("Matrix") }),
  },
  "GET /orgs/{organizationId}/sites/{siteId}/adaptive-schema/template-conditions": { own: orgReaders },
  // Published content is open to members, and to visitors holding the share key of the published share-link site.
  "GET /orgs/{organizationId}/sites/{siteId}/published": { own: [...orgReaders, "shareLinkVisitor"] },
  "GET /orgs/{organizationId}/sites/{siteId}/share-links": { own: admin },
  "POST /orgs/{organizationId}/sites/{siteId}/share-links": { own: admin, body: () => ({ name: "Matrix link" }) },
  "PATCH /orgs/{organizationId}/sites/{siteId}/share-links/{shareLinkId}": { own: admin, body: () => ({ name: "x" }) },
  "DELETE /orgs/{organizationId}/sites/{siteId}/share-links/{shareLinkId}": { own: admin },
  "GET /orgs/{organizationId}/sites/{siteId}/sections": { own: [...orgReaders, "shareLinkVisitor"] },
  "POST /orgs/{organizationId}/sites/{siteId}/sections": { own: admin, body: (ids) => ({ spaceId: ids.otherSpaceId }) },
  "DELETE /orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}": { own: admin },
  "PATCH /orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}": { own: admin, body: () => ({ title: "S" }) },
  "POST /orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}/move": { own: admin, body: () => ({}) },
  "GET /orgs/{organizationId}/sites/{siteId}/structure": { own: orgReaders },
  "PATCH /orgs/{organizationId}/sites/{siteId}/structure/sort": {
    own: admin,
    body: (ids) => ({ item: { type: "site-section", id: ids.siteSectionId }, position: {} }),
  },
  "GET /orgs/{organizationId}/sites/{siteId}/section-groups": { own: orgReaders },
  "POST /orgs/{organizationId}/sites/{siteId}/section-groups": { own: admin, body: () => ({ title: "Matrix group" }) },
  "DELETE /orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}": { own: admin },
  "PATCH /orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}": {
    own: admin,
    body: () => ({ title: "Renamed group" }),
  },
  "POST /orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections": {
    own: admin,
    body: (ids) => ({ sectionId: ids.siteSectionId }),
  },
  "DELETE /orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections/{siteSectionId}": {
    own: admin,
  },
  "POST /orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/move": {
    own: admin,
    body: () => ({}),
  },
  "GET /orgs/{organizationId}/sites/{siteId}/site-spaces": { own: [...orgReaders, "shareLinkVisitor"] },
  "POST /orgs/{organizationId}/sites/{siteId}/site-spaces": {
    own: admin,
    body: (ids) => ({ spaceId: ids.otherSpaceId, sectionId: ids.siteSectionId }),
  },
  "DELETE /orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}": { own: admin },
  "PATCH /orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}": { own: admin, body: () => ({}) },
  "POST /orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/move": { own: admin, body: () => ({}) },
  // Content of the fixture space (each member has their organization role on it): read to read, edit to write.
  "GET /spaces/{spaceId}/content": { own: members },
  // Search reads content: whoever may read the space (an organization's search covers the spaces each may read).
  "GET /spaces/{spaceId}/search": { own: members, query: { query: "page" } },
  "GET /orgs/{organizationId}/search": { own: anyMember, query: { query: "page" } },
  "GET /spaces/{spaceId}/content/pages": { own: members },
  "GET /spaces/{spaceId}/content/files": { own: members },
  "GET /spaces/{spaceId}/content/files/{fileId}": { own: members },
  "GET /spaces/{spaceId}/content/page/{pageId}": { own: members },
  "GET /spaces/{spaceId}/links": { own: members },
  "GET /spaces/{spaceId}/content/page/{pageId}/links": { own: members },
  "GET /spaces/{spaceId}/content/page/{pageId}/backlinks": { own: members },
  "GET /spaces/{spaceId}/content/files/{fileId}/backlinks": { own: members },
  "POST /spaces/{spaceId}/content": {
    own: atLeast("edit"),
    body: () => ({ changes: [{ type: "insert", page: { title: "Matrix page" } }] }),
  },
  "POST /spaces/{spaceId}/content/template": {
    own: atLeast("edit"),
    body: (ids) => ({
      id: "openapi-reference",
      params: { contentRefs: { spec: { kind: "openapi", spec: ids.specSlug } } },
    }),
  },
  // Change requests: read to read; edit to open, change, write and ask for reviewers; review to review and merge.
  "GET /spaces/{spaceId}/change-requests": { own: members },
  // The organization's list holds the change requests of the spaces the caller sees.
  "GET /orgs/{organizationId}/change-requests": { own: anyMember },
  "POST /spaces/{spaceId}/change-requests": { own: atLeast("edit"), body: () => ({ subject: "Matrix change" }) },
  "GET /spaces/{spaceId}/change-requests/{changeRequestId}": { own: members },
  "PATCH /spaces/{spaceId}/change-requests/{changeRequestId}": {
    own: atLeast("edit"),
    body: () => ({ subject: "Renamed change" }),
  },
  "POST /spaces/{spaceId}/change-requests/{changeRequestId}/merge": { own: atLeast("review") },
  "POST /spaces/{spaceId}/change-requests/{changeRequestId}/update": { own: atLeast("edit") },
  "GET /spaces/{spaceId}/change-requests/{changeRequestId}/pdf": { own: members },
  "POST /spaces/{spaceId}/change-requests/{changeRequestId}/content": {
    own: atLeast("edit"),
    body: () => ({ changes: [{ type: "insert", page: { title: "Matrix change page" } }] }),
  },
  "GET /spaces/{spaceId}/change-requests/{changeRequestId}/content": { own: members },
  "GET /spaces/{spaceId}/change-requests/{changeRequestId}/content/pages": { own: members },
  "GET /spaces/{spaceId}/change-requests/{changeRequestId}/content/files": { own: members },
  "GET /spaces/{spaceId}/change-requests/{changeRequestId}/content/files/{fileId}": { own: members },
  "GET /spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}": { own: members },
  "GET /spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}/links": { own: members },
  "GET /spaces/{spaceId}/change-requests/{changeRequestId}/content/files/{fileId}/backlinks": { own: members },
  "GET /spaces/{spaceId}/change-requests/{changeRequestId}/reviews": { own: members },
  // The fixture's author is the admin, who may not approve their own change request: a review asks for changes.
  "POST /spaces/{spaceId}/change-requests/{changeRequestId}/reviews": {
    own: atLeast("review"),
    body: () => ({ status: "changes-requested" }),
  },
  "GET /spaces/{spaceId}/change-requests/{changeRequestId}/reviews/{reviewId}": { own: members },
  "GET /spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers": { own: members },
  "POST /spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers": {
    own: atLeast("edit"),
    body: (ids) => ({ users: [ids.userId] }),
  },
  "DELETE /spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers/{userId}": { own: atLeast("edit") },
  // Git sync: space readers see the Git info, create (triggerGitSync) imports and exports, admins remove a legacy
  // installation. The repository does not exist: the queued job fails later, the request itself is accepted.
  "POST /spaces/{spaceId}/git/import": {
    own: atLeast("create"),
    body: () => ({ url: "file:///nonexistent/matrix.git", ref: "refs/heads/main" }),
  },
  "POST /spaces/{spaceId}/git/export": {
    own: atLeast("create"),
    body: () => ({ url: "file:///nonexistent/matrix.git", ref: "refs/heads/main", commitMessage: "Matrix" }),
  },
  "GET /spaces/{spaceId}/git/info": { own: members },
  "DELETE /spaces/{spaceId}/git/legacy-installation": { own: admin },
  // Translations: organization read to read, create to write and run.
  "GET /orgs/{organizationId}/translations": { own: orgReaders },
  "POST /orgs/{organizationId}/translations": {
    own: atLeast("create"),
    body: (ids) => ({ source: { space: ids.spaceId, language: "en" }, language: "de" }),
  },
  "GET /orgs/{organizationId}/translations/{translationId}": { own: orgReaders },
  "PUT /orgs/{organizationId}/translations/{translationId}": {
    own: atLeast("create"),
    body: () => ({ instructions: { object: "document", data: {}, nodes: [] } }),
  },
  "DELETE /orgs/{organizationId}/translations/{translationId}": { own: atLeast("create") },
  "POST /orgs/{organizationId}/translations/{translationId}/run": { own: atLeast("create") },
  // OpenAPI specs: organization read to read them and their versions, create to create, change and delete them.
  "GET /orgs/{organizationId}/openapi": { own: orgReaders },
  "POST /orgs/{organizationId}/openapi": {
    own: atLeast("create"),
    body: () => ({ slug: "matrix-spec", source: { text: matrixOpenApiText } }),
  },
  "GET /orgs/{organizationId}/openapi/{specSlug}": { own: orgReaders },
  "PUT /orgs/{organizationId}/openapi/{specSlug}": {
    own: atLeast("create"),
    body: () => ({ source: { text: matrixOpenApiText } }),
  },
  "DELETE /orgs/{organizationId}/openapi/{specSlug}": { own: atLeast("create") },
  "PATCH /orgs/{organizationId}/openapi/{specSlug}": {
    own: atLeast("create"),
    body: () => ({ visibility: "private" }),
  },
  "GET /orgs/{organizationId}/openapi/{specSlug}/versions": { own: orgReaders },
  "GET /orgs/{organizationId}/openapi/{specSlug}/versions/latest": { own: orgReaders },
  "GET /orgs/{organizationId}/openapi/{specSlug}/versions/latest/content": { own: orgReaders },
  "GET /orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}": { own: orgReaders },
  "GET /orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}/content": { own: orgReaders },
  // SAML providers (SSO): organization admin.
  "GET /orgs/{organizationId}/saml": { own: admin },
  "POST /orgs/{organizationId}/saml": { own: admin, body: () => ({ label: "Matrix saml" }) },
  "GET /orgs/{organizationId}/saml/{samlProviderId}": { own: admin },
  "PATCH /orgs/{organizationId}/saml/{samlProviderId}": { own: admin, body: () => ({ label: "Renamed saml" }) },
  "DELETE /orgs/{organizationId}/saml/{samlProviderId}": { own: admin },
  // The sign-in options (active providers only; the fixture's are pending) are open to anyone, without a token.
  "GET /orgs/{organizationId}/sso": { own: anyone, foreign: anyone },
  // Comments
  ...commentRows("/spaces/{spaceId}"),
  ...commentRows("/spaces/{spaceId}/change-requests/{changeRequestId}", changeRequestComment),
};

/** Keyed by `Query.field` / `Mutation.field`: a route whose document reaches the field, or a row of its own. */
export const graphqlMatrix: Record<string, GraphQLViaRoute | GraphQLMatrixRow | SubscriptionMatrixRow> = {
  "Query.collection": {
    own: orgReaders,
    document: "query($collectionId: ID!) { collection(id: $collectionId) { id title } }",
  },
  "Query.node": {
    own: members,
    document: "query($spaceId: ID!) { node(id: $spaceId) { id ... on Space { title } } }",
  },
  // The soft-deleted space itself is checked by `Query.node`: here the other ids stay visible on that target. Every
  // member sees the organization; `nodeMatrix` checks each type for each caller.
  "Query.nodes": {
    own: anyMember,
    deleted: anyMember,
    document: `query($organizationId: ID!, $teamId: ID!, $spaceId: ID!, $userId: ID!) {
      nodes(ids: [$organizationId, $teamId, $spaceId, $userId]) {
        id ... on Organization { title } ... on Team { title } ... on Space { title }
      }
    }`,
  },
  "Query.organization": { route: "GET /orgs/{organizationId}" },
  "Query.organizations": { route: "GET /orgs" },
  "Query.organizationsForEmailDomain": { route: "GET /email-domains/{emailDomain}/orgs" },
  "Query.publishedContentSite": { route: "GET /orgs/{organizationId}/sites/{siteId}/published" },
  // Every caller may see what its own operation costs and what is left of its own limit (an address's, untokened).
  "Query.rateLimit": { own: anyone, document: "{ rateLimit { cost maxCost } }" },
  "Query.siteSectionGroups": { route: "GET /orgs/{organizationId}/sites/{siteId}/section-groups" },
  "Query.siteSections": { route: "GET /orgs/{organizationId}/sites/{siteId}/sections" },
  "Query.siteSpaces": { route: "GET /orgs/{organizationId}/sites/{siteId}/site-spaces" },
  "Query.siteStructure": { route: "GET /orgs/{organizationId}/sites/{siteId}/structure" },
  "Query.space": { route: "GET /spaces/{spaceId}" },
  "Query.ssoProviderLogins": { route: "GET /orgs/{organizationId}/sso" },
  "Query.viewer": { own: signedIn, document: "{ viewer { user { id } apiTokens { totalCount } } }" },
  "Mutation.addTeamMember": { route: "PUT /orgs/{organizationId}/teams/{teamId}/members/{userId}" },
  "Mutation.addOrganizationMember": {
    own: admin,
    document: `mutation($organizationId: ID!) {
      addOrganizationMember(input: { organizationId: $organizationId, email: "matrix-new@seed.test", role: READ }) { member { id } }
    }`,
  },
  "Mutation.createSiteSectionGroup": { route: "POST /orgs/{organizationId}/sites/{siteId}/section-groups" },
  "Mutation.addSectionToGroup": {
    route: "POST /orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections",
  },
  "Mutation.createSiteSection": { route: "POST /orgs/{organizationId}/sites/{siteId}/sections" },
  "Mutation.createSiteSpace": { route: "POST /orgs/{organizationId}/sites/{siteId}/site-spaces" },
  // Every signed-in user manages their own tokens.
  "Mutation.createAPIToken": { own: signedIn, document: "mutation { createAPIToken { token } }" },
  "Mutation.applyTemplateToSpace": { route: "POST /spaces/{spaceId}/content/template" },
  "Mutation.createChangeRequest": { route: "POST /spaces/{spaceId}/change-requests" },
  "Mutation.createCollection": { route: "POST /orgs/{organizationId}/collections" },
  "Mutation.createOpenAPISpec": { route: "POST /orgs/{organizationId}/openapi" },
  "Mutation.createOrUpdateOpenAPISpec": { route: "PUT /orgs/{organizationId}/openapi/{specSlug}" },
  "Mutation.createOrganization": { route: "POST /orgs" },
  "Mutation.createOrganizationInvite": { route: "POST /orgs/{organizationId}/link-invites" },
  "Mutation.createOrganizationSAMLProvider": { route: "POST /orgs/{organizationId}/saml" },
  "Mutation.createTeam": { route: "PUT /orgs/{organizationId}/teams" },
  "Mutation.createSite": { route: "POST /orgs/{organizationId}/sites" },
  "Mutation.createSiteShareLink": { route: "POST /orgs/{organizationId}/sites/{siteId}/share-links" },
  "Mutation.createSpace": { route: "POST /orgs/{organizationId}/spaces" },
  "Mutation.createTranslation": { route: "POST /orgs/{organizationId}/translations" },
  // The comment mutations on the change request's thread (REST checks the space's): the author (admin) edits and
  // deletes, a space admin deletes, comment replies.
  "Mutation.deleteComment": {
    own: admin,
    document: `mutation($spaceId: ID!, $changeRequestId: ID!, $changeRequestCommentId: ID!) {
      deleteComment(input: { spaceId: $spaceId, changeRequestId: $changeRequestId, commentId: $changeRequestCommentId }) {
        deletedId
      }
    }`,
  },
  "Mutation.deleteCommentReply": {
    own: admin,
    document: `mutation($spaceId: ID!, $changeRequestId: ID!, $changeRequestCommentId: ID!,
      $changeRequestCommentReplyId: ID!) {
      deleteCommentReply(input: { spaceId: $spaceId, changeRequestId: $changeRequestId, commentId: $changeRequestCommentId, commentReplyId: $changeRequestCommentReplyId }) { deletedId }
    }`,
  },
  "Mutation.removeTeamMember": {
    route: "DELETE /orgs/{organizationId}/teams/{teamId}/members/{userId}",
  },
  "Mutation.deleteOpenAPISpec": { route: "DELETE /orgs/{organizationId}/openapi/{specSlug}" },
  "Mutation.deleteOrganizationInvite": { route: "DELETE /orgs/{organizationId}/link-invites/{inviteId}" },
  "Mutation.deleteOrganizationSAMLProvider": { route: "DELETE /orgs/{organizationId}/saml/{samlProviderId}" },
  "Mutation.deleteSite": { route: "DELETE /orgs/{organizationId}/sites/{siteId}" },
  "Mutation.deleteSiteSection": { route: "DELETE /orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}" },
  "Mutation.deleteSiteSectionGroup": {
    route: "DELETE /orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}",
  },
  "Mutation.deleteSiteShareLink": {
    route: "DELETE /orgs/{organizationId}/sites/{siteId}/share-links/{shareLinkId}",
  },
  "Mutation.deleteSiteSpace": { route: "DELETE /orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}" },
  "Mutation.deleteSpace": { route: "DELETE /spaces/{spaceId}" },
  "Mutation.deleteTranslation": { route: "DELETE /orgs/{organizationId}/translations/{translationId}" },
  "Mutation.duplicateSpace": { route: "POST /spaces/{spaceId}/duplicate" },
  "Mutation.importGitRepository": { route: "POST /spaces/{spaceId}/git/import" },
  "Mutation.exportToGitRepository": { route: "POST /spaces/{spaceId}/git/export" },
  "Mutation.deleteLegacyGitInstallation": { route: "DELETE /spaces/{spaceId}/git/legacy-installation" },
  "Mutation.inviteToSpace": { route: "POST /spaces/{spaceId}/permissions" },
  "Mutation.joinOrganization": { route: "POST /orgs/{organizationId}/join" },
  "Mutation.joinOrganizationWithInvite": { route: "POST /orgs/{organizationId}/invites/{inviteId}" },
  "Mutation.mergeChangeRequest": { route: "POST /spaces/{spaceId}/change-requests/{changeRequestId}/merge" },
  "Mutation.moveSiteSection": { route: "POST /orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}/move" },
  "Mutation.moveSiteSectionGroup": {
    route: "POST /orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/move",
  },
  "Mutation.moveSiteSpace": { route: "POST /orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/move" },
  "Mutation.moveSpace": { route: "POST /spaces/{spaceId}/move" },
  "Mutation.postComment": { route: "POST /spaces/{spaceId}/comments" },
  "Mutation.postCommentReply": {
    own: atLeast("comment"),
    document: `mutation($spaceId: ID!, $changeRequestId: ID!, $changeRequestCommentId: ID!) {
      postCommentReply(input: { spaceId: $spaceId, changeRequestId: $changeRequestId, commentId: $changeRequestCommentId,
        body: { markdown: "Matrix change reply" } }) { reply { id } }
    }`,
  },
  "Mutation.publishSite": { route: "POST /orgs/{organizationId}/sites/{siteId}/publish" },
  "Mutation.removeOrganizationMember": { route: "DELETE /orgs/{organizationId}/members/{userId}" },
  "Mutation.removeRequestedReviewerFromChangeRequest": {
    route: "DELETE /spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers/{userId}",
  },
  "Mutation.removeSectionFromGroup": {
    route: "DELETE /orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections/{siteSectionId}",
  },
  "Mutation.deleteTeam": { route: "DELETE /orgs/{organizationId}/teams/{teamId}" },
  "Mutation.requestReviewersForChangeRequest": {
    route: "POST /spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers",
  },
  "Mutation.restoreSpace": { route: "POST /spaces/{spaceId}/restore" },
  // Only the token's owner may revoke it; the target token belongs to none of the callers.
  "Mutation.revokeAPIToken": {
    own: nobody,
    document: "mutation($apiTokenId: ID!) { revokeAPIToken(input: { id: $apiTokenId }) { apiToken { id } } }",
  },
  "Mutation.runTranslation": { route: "POST /orgs/{organizationId}/translations/{translationId}/run" },
  "Mutation.setUserAsSSOMemberForOrganization": { route: "POST /orgs/{organizationId}/members/{userId}/sso" },
  "Mutation.sortSiteStructure": { route: "PATCH /orgs/{organizationId}/sites/{siteId}/structure/sort" },
  "Mutation.submitChangeRequestReview": { route: "POST /spaces/{spaceId}/change-requests/{changeRequestId}/reviews" },
  "Mutation.transferSpace": { route: "POST /spaces/{spaceId}/transfer" },
  "Mutation.unpublishSite": { route: "POST /orgs/{organizationId}/sites/{siteId}/unpublish" },
  "Mutation.updateChangeRequestFromSpace": { route: "POST /spaces/{spaceId}/change-requests/{changeRequestId}/update" },
  "Mutation.updateChangeRequestDetails": { route: "PATCH /spaces/{spaceId}/change-requests/{changeRequestId}" },
  "Mutation.updateChangeRequestContent": { route: "POST /spaces/{spaceId}/change-requests/{changeRequestId}/content" },
  "Mutation.updateComment": {
    own: admin,
    document: `mutation($spaceId: ID!, $changeRequestId: ID!, $changeRequestCommentId: ID!) {
      updateComment(input: { spaceId: $spaceId, changeRequestId: $changeRequestId, commentId: $changeRequestCommentId,
        body: { markdown: "Edited change comment" } }) { comment { id } }
    }`,
  },
  "Mutation.updateCommentReply": {
    own: admin,
    document: `mutation($spaceId: ID!, $changeRequestId: ID!, $changeRequestCommentId: ID!,
      $changeRequestCommentReplyId: ID!) {
      updateCommentReply(input: { spaceId: $spaceId, changeRequestId: $changeRequestId,
        commentId: $changeRequestCommentId, commentReplyId: $changeRequestCommentReplyId,
        body: { markdown: "Edited change reply" } }) { reply { id } }
    }`,
  },
  "Mutation.updateOrganizationMember": { route: "PATCH /orgs/{organizationId}/members/{userId}" },
  "Mutation.updateTeamMembers": { route: "PUT /orgs/{organizationId}/teams/{teamId}/members" },
  "Mutation.updateOpenAPISpec": { route: "PATCH /orgs/{organizationId}/openapi/{specSlug}" },
  "Mutation.updateOrganizationAgentInstructions": { route: "PUT /orgs/{organizationId}/agent-instructions" },
  "Mutation.updateOrganization": { route: "PATCH /orgs/{organizationId}" },
  "Mutation.updateOrganizationInvite": { route: "PATCH /orgs/{organizationId}/link-invites/{inviteId}" },
  "Mutation.updateOrganizationMemberLastSeenAt": { route: "POST /orgs/{organizationId}/ping" },
  "Mutation.updateOrganizationSAMLProvider": { route: "PATCH /orgs/{organizationId}/saml/{samlProviderId}" },
  "Mutation.updateSiteAdaptiveSchema": { route: "PUT /orgs/{organizationId}/sites/{siteId}/adaptive-schema" },
  "Mutation.updateSite": { route: "PATCH /orgs/{organizationId}/sites/{siteId}" },
  "Mutation.updateSiteSection": { route: "PATCH /orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}" },
  "Mutation.updateSiteSectionGroup": {
    route: "PATCH /orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}",
  },
  "Mutation.updateSiteShareLink": {
    route: "PATCH /orgs/{organizationId}/sites/{siteId}/share-links/{shareLinkId}",
  },
  "Mutation.updateSiteSpace": { route: "PATCH /orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}" },
  "Mutation.updateSpace": { route: "PATCH /spaces/{spaceId}" },
  "Mutation.updateSpaceContent": { route: "POST /spaces/{spaceId}/content" },
  "Mutation.updateSpaceVisibility": {
    own: admin,
    deleted: nobody,
    document: `mutation($spaceId: ID!) { updateSpaceVisibility(input: { spaceId: $spaceId, visibility: PRIVATE }) { space { id } } }`,
  },
  "Mutation.updateTeam": { route: "PATCH /orgs/{organizationId}/teams/{teamId}" },
  "Mutation.updateTranslation": { route: "PUT /orgs/{organizationId}/translations/{translationId}" },
  // Subscriptions: watching needs read on the watched object (a job: read on its organization).
  "Subscription.changeRequestCommentPosted": {
    own: members,
    document: `subscription($spaceId: ID!, $changeRequestId: ID!) {
      changeRequestCommentPosted(spaceId: $spaceId, changeRequestId: $changeRequestId) { changeRequest: changeRequestId comment: commentId }
    }`,
    probe: (ids, events) =>
      events.publish("changeRequestCommentPosted", ids.changeRequestId, {
        changeRequestId: ids.changeRequestId,
        commentId: ids.changeRequestCommentId,
        replyId: null,
        postedBy: ids.userId,
        postedAt: new Date(0).toISOString(),
      }),
  },
  "Subscription.changeRequestUpdated": {
    own: members,
    document: `subscription($spaceId: ID!, $changeRequestId: ID!) {
      changeRequestUpdated(spaceId: $spaceId, changeRequestId: $changeRequestId) { id: changeRequestId status }
    }`,
  },
  "Subscription.jobProgress": {
    own: orgReaders,
    document: "subscription($jobId: ID!) { jobProgress(jobId: $jobId) { id: jobId status } }",
  },
  "Subscription.jobUpdates": {
    own: orgReaders,
    document: "subscription($organizationId: ID!) { jobUpdates(organizationId: $organizationId) { id: jobId status } }",
    probe: (ids, events) =>
      events.publish("organizationJobUpdated", ids.organizationId, {
        id: ids.jobId,
        type: "matrix-probe",
        organizationId: ids.organizationId,
        status: "running",
        progressDone: 0,
        progressTotal: 0,
        progressMessage: null,
        lastError: null,
        updatedAt: new Date(0).toISOString(),
      }),
  },
};

/**
 * `node(id:)` and `nodes(ids:)` per node type: exactly these callers see the own organization's object of that
 * type (the same rule as the type's direct read); nobody sees another organization's.
 */
export const nodeMatrix: Partial<Record<keyof TargetIds, readonly Caller[]>> = {
  organizationId: anyMember,
  teamId: orgReaders,
  collectionId: orgReaders,
  siteId: orgReaders,
  // A user is seen by whoever may list the organization's members (and by themselves).
  userId: orgReaders,
  spaceId: members,
  changeRequestId: members,
  // A site's structure as its lists (`GET .../sections`, ...); its share links as `GET .../share-links`.
  siteSectionId: orgReaders,
  siteSectionGroupId: orgReaders,
  siteSpaceId: orgReaders,
  shareLinkId: admin,
  // Content and discussions of the target space: whoever reads the space.
  revisionId: members,
  revisionPageId: members,
  revisionFileId: members,
  // A membership is seen by whoever may read the organization's members (`GET .../members/{userId}`).
  memberId: orgReaders,
  // A team membership as the team's members list (`GET .../teams/{teamId}/members`).
  teamMemberId: orgReaders,
  memberTeamId: orgReaders,
  // A review request as the change request's `requested-reviewers`: whoever reads the change request.
  requestedReviewerId: members,
  reviewId: members,
  commentId: members,
  commentReplyId: members,
  changeRequestCommentId: members,
  changeRequestCommentReplyId: members,
  translationId: orgReaders,
  specId: orgReaders,
  versionId: orgReaders,
  inviteId: admin,
  samlProviderId: admin,
  // A token is its owner's alone (the fixture's belongs to a member who is none of the callers).
  apiTokenId: nobody,
};

/**
 * Nested reads, each run by the callers of `privateMarkers`: what they reveal must be what the caller may read
 * directly (an error or a null in place of the rest is fine). `$shareKey` is never sent.
 */
export const nestedReads: Record<string, string> = {
  "organization's lists": `query($organizationId: ID!) {
    organization(id: $organizationId) {
      title
      collections { nodes { id title } }
      teams { nodes { id title } }
      spaces { nodes { id title } }
      changeRequests { nodes { id subject } }
      searchOrganizationContent(query: "page") { nodes { id: spaceId title pages { title } } }
      sites { nodes { id title siteSpaces { nodes { title space { id title } } } } }
    }
  }`,
  "site structure": `query($siteId: ID!) {
    node(id: $siteId) {
      ... on Site {
        title
        siteSpaces { nodes { title space { id title } } }
        sections { nodes { title siteSpaces { nodes { title space { id title } } } } }
      }
    }
  }`,
  "site spaces and sections": `query($organizationId: ID!, $siteId: ID!) {
    siteSpaces(organizationId: $organizationId, siteId: $siteId) { nodes { title space { id title } } }
    siteSections(organizationId: $organizationId, siteId: $siteId) { nodes { title siteSpaces { nodes { title space { title } } } } }
  }`,
  "collection, team and organization by node": `query($collectionId: ID!, $teamId: ID!, $organizationId: ID!) {
    collection: node(id: $collectionId) { id ... on Collection { title } }
    team: node(id: $teamId) { id ... on Team { title } }
    organization: node(id: $organizationId) { id ... on Organization { collections { nodes { title } } } }
  }`,
};

/**
 * What each of these callers may not read, in any response except published content (which members of the
 * organization read by design, whatever their grants): the guest sees nothing of the own organization but its title
 * and the other space; the member without a grant nothing of the private spaces.
 */
export const privateMarkers: Partial<Record<Caller, RegExp>> = {
  guest: /Own(?! organization| other)[ .]/,
  memberWithoutGrant: /Own (space|sited|page|change|comment|reply|deleted)|Own\.txt/,
};

/** Routes and fields of published content, which every organization reader may read. */
export const publishedReads = ["GET /orgs/{organizationId}/sites/{siteId}/published", "Query.publishedContentSite"];
