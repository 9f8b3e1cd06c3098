import { describe, expect, it } from "vitest";
import { allow, forbid, hide } from "../../../src/auth/policy.ts";
import { checkedRead, readableIf, rewrittenRow } from "../../../src/auth/readable.ts";

/* The only ways a row becomes `Readable`: through an allowing decision, or as the newer row of a checked one. */

describe("checkedRead", () => {
  it("hands the row back once its decision allows it, and throws the refusal's error otherwise", () => {
    const row = { id: "space_1" };
    expect(checkedRead(row, allow)).toBe(row);
    expect(() => checkedRead(row, forbid("too low"))).toThrow("too low");
    expect(() => checkedRead(row, hide("Space space_1 not found"))).toThrow("Space space_1 not found");
  });
});

describe("readableIf", () => {
  it("reads a refused row as null, for lists and node reads", () => {
    const row = { id: "space_1" };
    expect(readableIf(row, allow)).toBe(row);
    expect(readableIf(row, hide("Space space_1 not found"))).toBeNull();
  });
});

describe("rewrittenRow", () => {
  it("vouches only for the newer row of the same checked row", () => {
    const checked = checkedRead({ id: "space_1", title: "old" }, allow);
    const updated = { id: "space_1", title: "new" };
    expect(rewrittenRow(checked, updated)).toBe(updated);
    expect(() => rewrittenRow(checked, { id: "space_2", title: "other" })).toThrow("not the checked row");
  });
});
