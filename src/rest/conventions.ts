/**
 * What the public REST API needs beyond the GraphQL result, kept here so the GraphQL schema carries none of it.
 * Route documents select `object: __typename`; the shape plan turns the type name into the REST object name.
 */
export const restObjectNames: Readonly<Record<string, string>> = {
  AgentInstructions: "agent-instructions",
  ChangeRequest: "change-request",
  ChangeRequestRequestedReviewer: "change-request-requested-reviewer",
  ChangeRequestReview: "change-request-review",
  Collection: "collection",
  Comment: "comment",
  CommentReply: "comment-reply",
  LinkInvite: "invite",
  Member: "member",
  OpenAPISpec: "openapi-spec",
  OpenAPISpecVersion: "openapi-spec-version",
  Organization: "organization",
  PublishedContentSite: "published-content-site",
  Revision: "revision",
  SAMLProvider: "saml-provider",
  ShareLink: "share-link",
  Site: "site",
  SiteAdaptiveSchema: "site-adaptive-schema",
  SiteSection: "site-section",
  SiteSectionGroup: "site-section-group",
  SiteSpace: "site-space",
  Space: "space",
  Team: "team",
  Translation: "translation",
  User: "user",
};

/**
 * Fields (`Type.field`) the public API sends as `null` rather than leaving out, e.g. a guest's `role`.
 * Every other null is dropped, as the public API leaves absent optional fields out.
 */
export const restKeepsNull: ReadonlySet<string> = new Set([
  "Collection.defaultLevel",
  "LinkInvite.role",
  "Member.role",
  "OpenAPISpecContentURLs.public",
  "Organization.defaultRole",
  "SAMLProvider.defaultRole",
  "Space.defaultLevel",
]);

/**
 * Enum values a REST body answers under other names, by the field and the response key it is selected as
 * (`Type.field as key`): a page's `kind` is its `type`, documents under their former name.
 */
export const restRenamedValues: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  "RevisionPage.type as kind": { DOCUMENT: "sheet", GROUP: "group", LINK: "link" },
};

/**
 * Flat page lists (`Type.field`, each page naming its `parent`) that the public API answers as a tree: each page
 * nests under the `pages` of its parent.
 */
export const restNestsByParent: ReadonlySet<string> = new Set(["Revision.pageList", "RevisionPage.descendants"]);
