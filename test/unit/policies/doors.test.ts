import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/*
 * No unchecked loader leaves its module: a door (`src/modules/<m>/<m>.public.ts`) exports functions that take a
 * checked parent (`Readable<Row>`) or check themselves, never a loader, which reads by id for anyone.
 */

const modulesDir = join(import.meta.dirname, "../../../src/modules");

/** Loaders still in a door, each with why; removing one from its door must remove it here too. */
const knownLoaderExports: Record<string, string> = {
  "space/visibleSpaceLoader": "checks itself: answers Readable<Space>, null for a space the viewer may not read",
  "space/visibleSpaceSummaryLoader": "checks itself, as visibleSpaceLoader",
  "space/spaceByIdLoader": "moving into the space read boundary",
  "space/teamSpaceCountLoader": "moving into the space read boundary",
  "user/userByIdLoader": "its callers (member, change request, review and comment fields) hold their rows unbranded",
};

/** The names a module's source exports, re-exports included. */
function exportedNames(fileName: string, source: string): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest);
  const names: string[] = [];
  for (const statement of file.statements) {
    if (ts.isExportDeclaration(statement) && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
      names.push(...statement.exportClause.elements.map((element) => element.name.text));
      continue;
    }
    const exported = ts.canHaveModifiers(statement)
      ? ts.getModifiers(statement)?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)
      : false;
    if (!exported) continue;
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        if (ts.isIdentifier(declaration.name)) names.push(declaration.name.text);
      }
    } else if ((ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) && statement.name) {
      names.push(statement.name.text);
    }
  }
  return names;
}

function doorLoaderExports(): string[] {
  return readdirSync(modulesDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => {
      const door = join(modulesDir, entry.name, `${entry.name}.public.ts`);
      let source: string;
      try {
        source = readFileSync(door, "utf8");
      } catch {
        return [];
      }
      return exportedNames(door, source)
        .filter((name) => name.endsWith("Loader"))
        .map((name) => `${entry.name}/${name}`);
    });
}

describe("doors", () => {
  it("export no loader beyond the known ones, and each known one is still there", () => {
    expect(doorLoaderExports().sort()).toEqual(Object.keys(knownLoaderExports).sort());
  });

  it("finds loaders re-exported, declared and renamed", () => {
    const source = [
      'export { teamByIdLoader, TeamRef } from "./team.loaders.ts";',
      'export { inner as renamedLoader } from "./other.ts";',
      "export const declaredLoader = () => null;",
      "export function functionLoader() {}",
      "const privateLoader = () => null;",
    ].join("\n");
    expect(exportedNames("door.ts", source).filter((name) => name.endsWith("Loader"))).toEqual([
      "teamByIdLoader",
      "renamedLoader",
      "declaredLoader",
      "functionLoader",
    ]);
  });
});
