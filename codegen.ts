import type { CodegenConfig } from "@graphql-codegen/cli";

// From the committed schema.graphql (`npm run codegen`, run by `npm test` and `npm run typecheck`): typed documents
// for the tests. The SDK generates its own (packages/sdk/codegen.ts).
const config: CodegenConfig = {
  schema: "schema.graphql",
  ignoreNoDocuments: true,
  generates: {
    "test/generated/": {
      documents: ["test/**/*.ts", "!test/generated/**", "!**/node_modules/**"],
      preset: "client",
      presetConfig: { fragmentMasking: false },
      config: { useTypeImports: true, scalars: { DateTime: "string", JSON: "unknown", URL: "string" } },
    },
  },
};

export default config;
