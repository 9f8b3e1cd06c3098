import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { expandedJsonBytes } from "../../src/modules/openapi-spec/expanded-size.ts";

describe("expandedJsonBytes", () => {
  it("is the JSON length of a document without references", () => {
    const document = { openapi: "3.0.3", info: { title: 'T "quoted" é', version: "1" }, tags: [1, true, null] };
    expect(expandedJsonBytes(document, Number.POSITIVE_INFINITY)).toBe(JSON.stringify(document).length);
  });

  it("counts each local $ref as what it points at, however often it is used", () => {
    const pet = { type: "object", properties: { name: { type: "string" } } };
    const document = {
      components: { schemas: { Pet: pet } },
      a: { $ref: "#/components/schemas/Pet" },
      b: [{ $ref: "#/components/schemas/Pet" }],
    };
    const expanded = { components: { schemas: { Pet: pet } }, a: pet, b: [pet] };
    expect(expandedJsonBytes(document, Number.POSITIVE_INFINITY)).toBe(JSON.stringify(expanded).length);
  });

  it("leaves a reference into its own ancestors as it is, and dangling or external ones too", () => {
    const document = {
      components: {
        schemas: { Node: { type: "object", properties: { next: { $ref: "#/components/schemas/Node" } } } },
      },
      missing: { $ref: "#/components/schemas/Nothing" },
      external: { $ref: "other.yaml#/Pet" },
    };
    expect(expandedJsonBytes(document, Number.POSITIVE_INFINITY)).toBe(JSON.stringify(document).length);
  });

  it("counts YAML aliases once per use, and stops past the limit", () => {
    const document = parse("base: &b {a: 1}\none: *b\ntwo: *b\n");
    expect(expandedJsonBytes(document, Number.POSITIVE_INFINITY)).toBe(JSON.stringify(document).length);
    const schemas: Record<string, unknown> = { L0: { type: "string" } };
    for (let level = 1; level <= 60; level++) {
      const previous = { $ref: `#/components/schemas/L${level - 1}` };
      schemas[`L${level}`] = { properties: { a: previous, b: previous } };
    }
    expect(expandedJsonBytes({ components: { schemas } }, 1024 * 1024)).toBe(Number.POSITIVE_INFINITY);
  });
});
