import { describe, expect, it } from "vitest";
import { replicaFailure } from "../../src/db/read-replicas.ts";
import { walPosition } from "../../src/lib/wal-position.ts";

describe("walPosition", () => {
  it("orders positions as PostgreSQL does: by the high 32 bits, then the low", () => {
    expect(walPosition("0/0")).toBe(0n);
    expect(walPosition("0/16B3748")).toBe(0x16b3748n);
    expect(walPosition("16/B374D848")).toBe((0x16n << 32n) + 0xb374d848n);
    // Text order would put "9/..." after "10/...".
    expect(walPosition("9/FFFFFFFF") < walPosition("10/0")).toBe(true);
    expect(walPosition("1/A") < walPosition("1/10")).toBe(true);
  });

  it("refuses what is not a position", () => {
    for (const text of ["", "16", "16/", "/1", "G/1", "1/123456789", "1/1 "]) {
      expect(() => walPosition(text), text).toThrow("Not a WAL position");
    }
  });
});

describe("replicaFailure", () => {
  it("fails a replica over when its connection fails or it shuts down, and retries conflicts with recovery and writes", () => {
    expect(replicaFailure(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }))).toBe("down");
    expect(replicaFailure(new Error("Connection terminated unexpectedly"))).toBe("down");
    expect(replicaFailure(Object.assign(new Error("terminating connection"), { code: "57P01" }))).toBe("down");
    expect(replicaFailure(Object.assign(new Error("the database system is starting up"), { code: "57P03" }))).toBe(
      "down",
    );
    expect(replicaFailure(Object.assign(new Error("connection failure"), { code: "08006" }))).toBe("down");
    expect(replicaFailure(Object.assign(new Error("conflict with recovery"), { code: "40001" }))).toBe("retry");
    expect(replicaFailure(Object.assign(new Error("read-only transaction"), { code: "25006" }))).toBe("retry");
  });

  it("leaves a statement's own errors to its caller", () => {
    expect(replicaFailure(Object.assign(new Error("invalid input syntax"), { code: "22P02" }))).toBeUndefined();
    expect(replicaFailure(Object.assign(new Error("statement timeout"), { code: "57014" }))).toBeUndefined();
  });
});
