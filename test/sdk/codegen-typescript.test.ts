import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generate } from "@graphql-codegen/cli";
import * as typescriptPlugin from "@graphql-codegen/typescript";
import ts from "typescript";
import { expect, it } from "vitest";

/*
 * A front end's first step: GraphQL Code Generator's `typescript` plugin over the published schema, with its
 * defaults, must give TypeScript that compiles (two fields whose names differ only in case made duplicate types).
 */

it("codegen's typescript plugin output over schema.graphql compiles with tsc", async () => {
  const [output] = await generate(
    {
      schema: "schema.graphql",
      silent: true,
      generates: { "types.ts": { plugins: ["typescript"] } },
      pluginLoader: () => typescriptPlugin,
    },
    false,
  );
  const file = join(mkdtempSync(join(tmpdir(), "codegen-typescript-")), "types.ts");
  writeFileSync(file, output?.content ?? "");
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
  });
  const problems = ts
    .getPreEmitDiagnostics(program)
    .map((diagnostic) => `TS${diagnostic.code}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`);
  expect(problems).toEqual([]);
});
