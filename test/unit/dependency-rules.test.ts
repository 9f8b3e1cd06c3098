import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { cruise, type ICruiseResult } from "dependency-cruiser";
import extractDepcruiseOptions from "dependency-cruiser/config-utl/extract-depcruise-options";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/*
 * The module rules of .dependency-cruiser.cjs and .dependency-cruiser-modules.cjs run on a small tree written here,
 * which breaks each rule once and keeps one clean pair: a rule that never fires would let `npm run lint` pass anyway.
 */

const mainConfig = new URL("../../.dependency-cruiser.cjs", import.meta.url).pathname;
const modulesConfig = new URL("../../.dependency-cruiser-modules.cjs", import.meta.url).pathname;

const fixture: Record<string, string> = {
  // alpha uses beta through its door, and beta's door only: allowed.
  "src/modules/alpha/alpha.public.ts": 'export { alphaValue } from "./alpha.service.ts";\n',
  "src/modules/alpha/alpha.service.ts":
    'import { betaValue } from "../beta/beta.public.ts";\nexport const alphaValue = betaValue + 1;\n',
  "src/modules/beta/beta.public.ts": 'export { betaValue } from "./beta.service.ts";\n',
  "src/modules/beta/beta.service.ts": "export const betaValue = 1;\n",
  // beta uses alpha back: no file cycle, but a module cycle.
  "src/modules/beta/beta-reader.ts":
    'import { alphaValue } from "../alpha/alpha.public.ts";\nexport const read = alphaValue;\n',
  // gamma reaches past alpha's door, and into the job engine.
  "src/modules/gamma/gamma.service.ts":
    'import { alphaValue } from "../alpha/alpha.service.ts";\nimport { engine } from "../../jobs/engine.ts";\n' +
    "export const gamma = alphaValue + engine;\n",
  "src/jobs/engine.ts": "export const engine = 1;\n",
  // The app outside the modules reaches past a door too.
  "src/http/outside.ts":
    'import { betaValue } from "../modules/beta/beta.service.ts";\nexport const outside = betaValue;\n',
  // The database layer imports upward, into the GraphQL layer; the GraphQL layer importing it back down is fine.
  "src/db/upward.ts": 'import { built } from "../graphql/builder.ts";\nexport const upward = built;\n',
  "src/graphql/builder.ts": 'import { sql } from "../db/sql.ts";\nexport const built = sql;\n',
  "src/db/sql.ts": "export const sql = 1;\n",
  // The module list reads alpha's manifest (allowed) and beta's service (refused); other code reads a manifest.
  "src/modules/alpha/alpha.module.ts": 'export { alphaValue as alphaModule } from "./alpha.service.ts";\n',
  "src/app/modules.ts":
    'import { alphaModule } from "../modules/alpha/alpha.module.ts";\nimport { betaValue } from "../modules/beta/beta.service.ts";\n' +
    "export const modules = [alphaModule, betaValue];\n",
  "src/app/wiring.ts":
    'import { alphaModule } from "../modules/alpha/alpha.module.ts";\nexport const wired = alphaModule;\n',
  // A file loose at the root of src/, outside every layer.
  "src/loose.ts": 'import { sql } from "./db/sql.ts";\nexport const loose = sql;\n',
};

let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "dependency-rules-"));
  for (const [path, text] of Object.entries(fixture)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The violations `npm run lint` would report on the fixture (read as the CLI reads it, without the project's tsconfig). */
async function violations(configFile: string): Promise<string[]> {
  const { tsConfig: _projectTsConfig, ...options } = await extractDepcruiseOptions(configFile);
  const { output } = await cruise(["src"], { ...options, baseDir: root });
  const result = output as ICruiseResult;
  return result.summary.violations.map((violation) => `${violation.rule.name}: ${violation.from} -> ${violation.to}`);
}

describe("dependency rules", () => {
  it("refuse an import past a module's door, a manifest outside the module list, a module importing the engine, an upward import and a loose file", async () => {
    expect((await violations(mainConfig)).sort()).toEqual([
      "app-enters-modules-through-doors: src/app/wiring.ts -> src/modules/alpha/alpha.module.ts",
      "app-enters-modules-through-doors: src/http/outside.ts -> src/modules/beta/beta.service.ts",
      "every-file-in-a-layer: src/loose.ts -> src/db/sql.ts",
      "layer-db-imports-only-below: src/db/upward.ts -> src/graphql/builder.ts",
      "module-list-names-manifests: src/app/modules.ts -> src/modules/beta/beta.service.ts",
      "modules-enter-through-doors: src/modules/gamma/gamma.service.ts -> src/modules/alpha/alpha.service.ts",
      "modules-never-import-the-job-engine: src/modules/gamma/gamma.service.ts -> src/jobs/engine.ts",
      "only-the-module-list-reads-manifests: src/app/wiring.ts -> src/modules/alpha/alpha.module.ts",
    ]);
  });

  it("refuse two modules importing each other, though no file cycle joins them", async () => {
    expect((await violations(modulesConfig)).sort()).toEqual([
      "no-module-cycles: src/modules/alpha -> src/modules/beta",
      "no-module-cycles: src/modules/beta -> src/modules/alpha",
    ]);
  });
});
