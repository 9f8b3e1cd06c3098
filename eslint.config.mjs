// `npm run lint`: the committed schema (schema.graphql, printed from the code by `npm run schema:print`) and the
// SDK's operations, by graphql-eslint's rules.
import graphql from "@graphql-eslint/eslint-plugin";

const graphQLConfig = { schema: "schema.graphql", documents: "packages/sdk/src/operations.graphql" };

/** Types that are not entities, so carry no id: Relay's plumbing, payloads and per-object value sets. */
const typesWithoutIds = {
  types: ["PageInfo", "RateLimit", "Viewer", "Query", "Mutation", "Subscription"],
  suffixes: ["Payload", "Connection", "Edge", "Urls", "Permissions", "Stats", "Result"],
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
      // Warnings until issue 37 item 1 (every object with an id a Node; the others are value objects) lands.
      "@graphql-eslint/strict-id-in-types": ["warn", { exceptions: typesWithoutIds }],
      // Warnings until issue 37 items 1 and 5 land (edge nodes are Nodes; one edge type per item type).
      "@graphql-eslint/relay-edge-types": ["warn", { shouldImplementNode: true, listTypeCanWrapOnlyEdgeType: false }],
      // Warnings until issue 37 item 5 (naming) decides `Site.siteSpaces` / `Site.siteSpaceCount`.
      "@graphql-eslint/no-typename-prefix": "warn",
    },
  },
  {
    files: ["packages/sdk/src/*.graphql"],
    languageOptions: { parser: graphql.parser, parserOptions: { graphQLConfig } },
    plugins: { "@graphql-eslint": graphql },
    rules: graphql.configs["flat/operations-recommended"].rules,
  },
];
