import { describe, expect, it } from "vitest";
import { clientAddress } from "../../src/lib/client-address.ts";

describe("a caller's address", () => {
  it("is the peer's unless proxies are trusted, whatever X-Forwarded-For says", () => {
    expect(clientAddress("10.0.0.5", "198.51.100.7", 0)).toBe("10.0.0.5");
    expect(clientAddress("10.0.0.5", null, 1)).toBe("10.0.0.5");
  });

  it("is the entry the outermost trusted proxy appended, not the ones the client wrote before it", () => {
    expect(clientAddress("10.0.0.5", "198.51.100.7", 1)).toBe("198.51.100.7");
    expect(clientAddress("10.0.0.5", "1.2.3.4, 198.51.100.7", 1)).toBe("198.51.100.7");
    expect(clientAddress("10.0.0.6", "1.2.3.4, 198.51.100.7, 10.0.0.5", 2)).toBe("198.51.100.7");
  });

  it("is the peer's when the request came through fewer proxies than trusted, and is bounded in length", () => {
    expect(clientAddress("10.0.0.5", "198.51.100.7", 2)).toBe("10.0.0.5");
    expect(clientAddress("10.0.0.5", " , ", 1)).toBe("10.0.0.5");
    expect(clientAddress("10.0.0.5", "x".repeat(1000), 1)).toHaveLength(64);
  });
});
