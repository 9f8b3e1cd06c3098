import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { diffMigrationsToSchema, schemaPath } from "../../scripts/schema-engine.ts";

// The WASM schema engine replays every migration: slow on a busy machine.
describe("prisma/migrations", { timeout: 120_000 }, () => {
  it("builds exactly prisma/schema.prisma (else run `npm run db:migration -- <name>`)", async () => {
    expect(await diffMigrationsToSchema()).toBe("");
  });

  it("reports a schema change that has no migration", async () => {
    const datamodel = `${readFileSync(schemaPath, "utf8")}\nmodel DriftProbe {\n  id String @id\n}\n`;
    const sql = await diffMigrationsToSchema({ datamodel });
    expect(sql).toContain('CREATE TABLE "DriftProbe"');
  });
});
