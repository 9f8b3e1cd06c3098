import type { CodegenConfig } from "@graphql-codegen/cli";

// The SDK's typed methods, from the gateway's committed schema and this package's operations (`npm run build`).
const config: CodegenConfig = {
  schema: "../../schema.graphql",
  generates: {
    "src/generated.ts": {
      documents: "src/operations.graphql",
      // typescript-operations writes the input and enum types the operations use: with the `typescript` plugin too,
      // each would be declared twice.
      plugins: ["typescript-operations", "typescript-graphql-request"],
      // Pre-parsed documents: the SDK needs graphql-request and graphql only (no graphql-tag).
      config: {
        documentMode: "documentNode",
        useTypeImports: true,
        scalars: { DateTime: "string", JSON: "unknown", URL: "string" },
        enumsAsTypes: true,
        onlyOperationTypes: true,
      },
    },
  },
};

export default config;
