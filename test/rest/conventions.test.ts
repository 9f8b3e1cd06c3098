import { isObjectType } from "graphql";
import { expect, it } from "vitest";
import { schema } from "../../src/app/schema.ts";
import { restKeepsNull, restNestsByParent, restObjectName } from "../../src/rest/conventions.ts";

// The modules declare their REST conventions on their GraphQL types and fields: a type or field that lost its
// declaration in a refactor must fail here, not silently answer without its REST object name or drop a null.
const objectTypes = Object.values(schema.getTypeMap()).filter(isObjectType);

it("gives each REST resource type one REST object name of its own", () => {
  const named = Object.fromEntries(
    objectTypes.flatMap((type) => {
      const name = restObjectName(type);
      return name ? [[type.name, name]] : [];
    }),
  );
  expect(named).toEqual({
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
  });
  expect(new Set(Object.values(named)).size).toBe(Object.keys(named).length);
});

it("keeps the nulls the public API sends and nests the page lists it answers as trees", () => {
  const fields = (declared: (field: never) => boolean) =>
    objectTypes.flatMap((type) =>
      Object.values(type.getFields())
        .filter((field) => declared(field as never))
        .map((field) => `${type.name}.${field.name}`),
    );
  expect(fields(restKeepsNull).sort()).toEqual([
    "Collection.defaultLevel",
    "LinkInvite.role",
    "Member.role",
    "OpenAPISpecContentURLs.public",
    "Organization.defaultRole",
    "SAMLProvider.defaultRole",
    "Space.defaultLevel",
  ]);
  expect(fields(restNestsByParent).sort()).toEqual(["Revision.pageList", "RevisionPage.descendants"]);
});
