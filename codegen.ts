import type { CodegenConfig } from "@graphql-codegen/cli";

// Typed documents for the tests, generated from the committed schema.graphql (`npm run codegen`, run by `npm test`).
const config: CodegenConfig = {
  schema: "schema.graphql",
  documents: ["test/**/*.ts", "!test/generated/**"],
  ignoreNoDocuments: true,
  generates: {
    "test/generated/": {
      preset: "client",
      presetConfig: { fragmentMasking: false },
      config: { useTypeImports: true, scalars: { DateTime: "string", JSON: "unknown" } },
    },
  },
};

export default config;
