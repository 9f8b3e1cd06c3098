import { describe, expect, it } from "vitest";
import { compileRowBuilder } from "../../src/lib/row-builder.ts";

const places = [
  { key: "id", relation: undefined },
  { key: "id", relation: "organization" },
  { key: "title", relation: "organization" },
  { key: "title", relation: undefined },
];

describe("compiled row builders", () => {
  it("nest a relation's columns in the row, null when its first column is", () => {
    const build = compileRowBuilder(places, false);
    expect(build(["s1", "o1", "Org", "Space"], [])).toEqual({
      id: "s1",
      organization: { id: "o1", title: "Org" },
      title: "Space",
    });
    expect(build(["s2", null, null, "Other"], [])).toEqual({ id: "s2", organization: null, title: "Other" });
  });

  it("put relations apart, one entry per row, when asked", () => {
    const build = compileRowBuilder(places, true);
    const related: Record<string, unknown>[] = [];
    const rows = [build(["s1", "o1", "Org", "Space"], related), build(["s2", null, null, "Other"], related)];
    expect(rows).toEqual([
      { id: "s1", title: "Space" },
      { id: "s2", title: "Other" },
    ]);
    expect(related).toEqual([{ organization: { id: "o1", title: "Org" } }, { organization: null }]);
    expect(compileRowBuilder([{ key: "id", relation: undefined }], true)(["x"], related)).toEqual({ id: "x" });
    expect(related.at(-1)).toEqual({});
  });

  it("keep any column name a key, and refuse one that would set the prototype", () => {
    const odd = [{ key: `a"b\\c'}`, relation: undefined }];
    expect(compileRowBuilder(odd, false)([1], [])).toEqual({ "a\"b\\c'}": 1 });
    expect(() => compileRowBuilder([{ key: "__proto__", relation: undefined }], false)).toThrow(/__proto__/);
  });
});
