// `npm run lint`: the committed schema (schema.graphql, printed from the code by `npm run schema:print`) and the
// SDK's operations, by graphql-eslint's rules.
import graphql from "@graphql-eslint/eslint-plugin";

const graphQLConfig = { schema: "schema.graphql", documents: "packages/sdk/src/operations.graphql" };

/**
 * Types that are not entities, so carry no id: Relay's plumbing, payloads, errors as data, and value objects that
 * live inside their owner (a comment's body, a file's dimensions, a search hit, a Git sync state). A normalized
 * cache stores those within the object that holds them; every type that has an `id` is a `Node`
 * (test/graphql/schema-nodes.test.ts).
 */
const typesWithoutIds = {
  types: [
    "PageInfo",
    "RateLimit",
    "Viewer",
    "Query",
    "Mutation",
    "Subscription",
    "AgentInstructions",
    "ChangeRequestCommentPosted",
    "ChangeRequestPDF",
    "ChangeRequestRequestedReviewer",
    "ChangeRequestUpdate",
    "CommentBody",
    "CommentReaction",
    "CommentReactionUser",
    "CommentReplier",
    "CommentTarget",
    "CommentTargetNode",
    "CommentTargetPage",
    "CommentTargetTableCell",
    "ContentEdit",
    "ContentLink",
    "ContentLocation",
    "FileDimensions",
    "GitSyncBlob",
    "GitSyncCommit",
    "GitSyncOperation",
    "GitSyncState",
    "InsertedContent",
    "JobUpdate",
    "MemberContentPermission",
    "MemberTeam",
    "OpenAPISpecContent",
    "OpenAPISpecProcessError",
    "OrganizationDefaultContent",
    "OrganizationTeamMember",
    "OrganizationTrial",
    "PublishedContentSite",
    "SAMLServiceProvider",
    "SSOProviderLogin",
    "SSOProviderLogins",
    "SearchPageAncestor",
    "SiteAdaptiveContent",
    "SiteAdaptiveSchema",
    "SiteAdaptiveTemplateCondition",
    "SiteAdaptiveTemplateConditions",
    "SiteFeature",
    "SiteProxy",
    "SiteStructure",
    "TeamMember",
    "TranslationSource",
  ],
  suffixes: ["Payload", "Connection", "Edge", "URLs", "Permissions", "Stats", "Result", "UserError"],
};

export default [
  {
    files: ["schema.graphql"],
    languageOptions: { parser: graphql.parser, parserOptions: { graphQLConfig } },
    plugins: { "@graphql-eslint": graphql },
    rules: {
      ...graphql.configs["flat/schema-recommended"].rules,
      ...graphql.configs["flat/schema-relay"].rules,
      "@graphql-eslint/require-description": [
        "error",
        {
          types: true,
          rootField: true,
          DirectiveDefinition: true,
          FieldDefinition: true,
          InputValueDefinition: true,
          EnumValueDefinition: true,
        },
      ],
      "@graphql-eslint/strict-id-in-types": ["error", { exceptions: typesWithoutIds }],
      // Lists of value objects (a search hit, a link, a permission) are connections too; their items are not Nodes.
      "@graphql-eslint/relay-edge-types": ["error", { shouldImplementNode: false, listTypeCanWrapOnlyEdgeType: false }],
      // `Site.siteSpaces` and `Site.siteSpaceCount` name the public API's resource (site spaces), not the parent type.
      "@graphql-eslint/no-typename-prefix": "off",
    },
  },
  {
    files: ["packages/sdk/src/*.graphql"],
    languageOptions: { parser: graphql.parser, parserOptions: { graphQLConfig } },
    plugins: { "@graphql-eslint": graphql },
    rules: graphql.configs["flat/operations-recommended"].rules,
  },
];
