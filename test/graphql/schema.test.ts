import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { printSortedSchema } from "../../src/app/schema.ts";

it("schema.graphql is the printed schema (run `npm run schema:print` after changing types)", () => {
  const committed = readFileSync(new URL("../../schema.graphql", import.meta.url), "utf8");
  expect(committed).toBe(printSortedSchema());
});
