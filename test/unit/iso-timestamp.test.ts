import { describe, expect, it } from "vitest";
import { isoTimestamp } from "../../src/lib/iso-timestamp.ts";

describe("isoTimestamp", () => {
  it("writes what toISOString writes, across years, leap days and milliseconds", () => {
    const start = Date.UTC(1000, 0, 1);
    const end = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
    for (let step = 0; step <= 20_000; step++) {
      const date = new Date(start + Math.floor(((end - start) * step) / 20_000) + (step % 1000));
      expect(isoTimestamp(date)).toBe(date.toISOString());
    }
    for (const instant of [Date.UTC(2024, 1, 29, 0, 0, 0, 7), Date.UTC(1970, 0, 1), end, start]) {
      expect(isoTimestamp(new Date(instant))).toBe(new Date(instant).toISOString());
    }
  });

  it("leaves other years to the builtin, which also refuses invalid dates", () => {
    for (const year of [50, 999, 10_000, -1]) {
      const date = new Date(Date.UTC(2000, 5, 15, 1, 2, 3, 4));
      date.setUTCFullYear(year);
      expect(isoTimestamp(date)).toBe(date.toISOString());
    }
    expect(() => isoTimestamp(new Date(Number.NaN))).toThrow(RangeError);
  });
});
