import { readFileSync } from "node:fs";
import { join } from "node:path";
import { buildSchema, isInputObjectType, isInterfaceType, isObjectType } from "graphql";
import { describe, expect, it } from "vitest";
import { root } from "./markdown.ts";

/** Every deprecated field, argument and input field of the committed schema, with the text that names it. */
function deprecations(): { name: string; named: RegExp }[] {
  const schema = buildSchema(readFileSync(join(root, "schema.graphql"), "utf8"));
  const found = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith("__")) continue;
    if (isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) {
        if (field.deprecationReason)
          found.push({ name: `${type.name}.${field.name}`, named: new RegExp(`\`${field.name}\``) });
      }
    }
    if (!isObjectType(type) && !isInterfaceType(type)) continue;
    for (const field of Object.values(type.getFields())) {
      if (field.deprecationReason) {
        found.push({ name: `${type.name}.${field.name}`, named: new RegExp(`\`(${type.name}\\.)?${field.name}\``) });
      }
      for (const argument of field.args) {
        if (!argument.deprecationReason) continue;
        // `members(sort:, order:)`: the field, then the argument among its listed ones.
        const named = new RegExp(`${field.name}\\([^)]*\\b${argument.name}:`);
        found.push({ name: `${type.name}.${field.name}(${argument.name}:)`, named });
      }
    }
  }
  return found;
}

describe("CHANGELOG.md", () => {
  const changelog = readFileSync(join(root, "CHANGELOG.md"), "utf8");
  // The text of every "### Deprecated" section, up to the next heading.
  const deprecatedSections = [...changelog.matchAll(/^### Deprecated\n([\s\S]*?)(?=^#)/gm)]
    .map((match) => match[1])
    .join("\n");

  it("starts each release with what it deprecates", () => {
    const releases = changelog.split(/^## /m).slice(1);
    expect(releases.length).toBeGreaterThan(1);
    for (const release of releases) {
      const sections = [...release.matchAll(/^### (\w+)/gm)].map((match) => match[1]);
      if (sections.includes("Deprecated")) expect(sections[0], release.split("\n")[0]).toBe("Deprecated");
    }
  });

  it("lists every name schema.graphql deprecates", () => {
    const found = deprecations();
    expect(found.filter(({ named }) => !named.test(deprecatedSections)).map(({ name }) => name)).toEqual([]);
  });
});
