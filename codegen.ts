import type { CodegenConfig } from "@graphql-codegen/cli";

const scalars = { DateTime: "string", JSON: "unknown" };

// From the committed schema.graphql (`npm run codegen`, run by `npm test` and `npm run typecheck`):
// typed documents for the tests, and the typed SDK this package publishes (`exports["./sdk"]`).
const config: CodegenConfig = {
  schema: "schema.graphql",
  ignoreNoDocuments: true,
  generates: {
    "src/sdk/generated.ts": {
      documents: "src/sdk/operations.graphql",
      // typescript-operations writes the input and enum types the operations use: with the `typescript` plugin too,
      // each would be declared twice.
      plugins: ["typescript-operations", "typescript-graphql-request"],
      // Pre-parsed documents: the SDK needs graphql-request and graphql only (no graphql-tag).
      config: {
        documentMode: "documentNode",
        useTypeImports: true,
        scalars,
        enumsAsTypes: true,
        onlyOperationTypes: true,
      },
    },
    "test/generated/": {
      documents: ["test/**/*.ts", "!test/generated/**", "!**/node_modules/**"],
      preset: "client",
      presetConfig: { fragmentMasking: false },
      config: { useTypeImports: true, scalars },
    },
  },
};

export default config;
