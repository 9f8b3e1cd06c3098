// `npm run lint`: the committed schema (schema.graphql, printed from the code by `npm run schema:print`) and the
// SDK's operations, by graphql-eslint's rules.
import graphql from "@graphql-eslint/eslint-plugin";

const graphQLConfig = { schema: "schema.graphql", documents: "packages/sdk/src/operations.graphql" };

/**
 * Types that are not entities, so carry no id: the roots, payloads and errors as data, answered at a mutation's root
 * which normalized caches do not key. Every other type has an id: a `Node`'s, or one its owner gives it (value
 * objects, connections, edges, page info: src/graphql/value-ids.ts, test/graphql/schema-nodes.test.ts).
 */
const typesWithoutIds = {
  types: ["Query", "Mutation", "Subscription"],
  suffixes: ["Payload", "UserError"],
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
