import { describe, expect, it } from "vitest";
import { parseUtcTimestamp } from "../../src/lib/utc-timestamp.ts";

/** What the drivers' text would mean to `Date`'s own parser, read as UTC. */
const byDateParser = (text: string) => new Date(`${text.replace(" ", "T")}Z`).getTime();

describe("parseUtcTimestamp", () => {
  it("reads PostgreSQL's timestamp text as UTC, to the millisecond", () => {
    const texts = [
      "2026-01-01 00:00:00",
      "2026-01-01 00:00:00.5",
      "2026-01-01 00:00:00.12",
      "2026-12-31 23:59:59.999",
      "2024-02-29 12:34:56.007",
      "1970-01-01 00:00:00",
      "1969-12-31 23:59:59.001",
      "0100-03-01 01:02:03.4",
      "9999-12-31 23:59:59.999",
    ];
    for (const text of texts) expect([text, parseUtcTimestamp(text).getTime()]).toEqual([text, byDateParser(text)]);
  });

  it("agrees with Date's parser on every millisecond of a sample of a year", () => {
    const start = Date.UTC(2025, 0, 1);
    for (let step = 0; step < 5000; step++) {
      const instant = new Date(start + step * 6_311_003);
      const text = instant
        .toISOString()
        .replace("T", " ")
        .replace("Z", "")
        .replace(/\.?0+$/, "");
      expect(parseUtcTimestamp(text).getTime()).toBe(instant.getTime());
    }
  });

  it("leaves other forms to Date's parser", () => {
    expect(parseUtcTimestamp("2026-01-01 00:00:00.123456").getTime()).toBe(byDateParser("2026-01-01 00:00:00.123456"));
    expect(parseUtcTimestamp("0050-01-01 00:00:00").getUTCFullYear()).toBe(50);
    expect(Number.isNaN(parseUtcTimestamp("infinity").getTime())).toBe(true);
    expect(Number.isNaN(parseUtcTimestamp("2026-01-01 00:00:00.1x").getTime())).toBe(true);
  });
});
