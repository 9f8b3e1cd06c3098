import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonNestingExceeds } from "../../src/http/body.ts";

/** The nesting depth of a JSON value, the slow and obvious way. */
function depthOf(value: unknown): number {
  if (Array.isArray(value)) return 1 + Math.max(0, ...value.map(depthOf));
  if (value && typeof value === "object") return 1 + Math.max(0, ...Object.values(value).map(depthOf));
  return 0;
}

const bytes = (text: string) => new TextEncoder().encode(text);

describe("jsonNestingExceeds", () => {
  it("agrees with the parsed value's depth, brackets and escapes inside strings included", () => {
    const tricky = fc.constantFrom("[", "]", "{", "}", '"', "\\", '\\"', "\\\\", "x", "é");
    const text = fc.array(tricky, { maxLength: 12 }).map((parts) => parts.join(""));
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: "small" },
        text,
        fc.array(tie("value"), { maxLength: 3 }),
        fc.dictionary(text, tie("value"), { maxKeys: 3 }),
      ),
    })).value;
    fc.assert(
      fc.property(json, fc.integer({ min: 0, max: 6 }), (value, limit) => {
        expect(jsonNestingExceeds(bytes(JSON.stringify(value)), limit)).toBe(depthOf(value) > limit);
      }),
    );
  });

  it("reads a string of a megabyte full of escapes in one pass", () => {
    const body = bytes(JSON.stringify({ query: `{ a }${'\\"x'.repeat(300_000)}`, nested: [[[1]]] }));
    expect(jsonNestingExceeds(body, 4)).toBe(false);
    expect(jsonNestingExceeds(body, 3)).toBe(true);
  });
});
