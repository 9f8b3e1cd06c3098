import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Table } from "mdast";
import { toString as textOf } from "mdast-util-to-string";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/platform/config.ts";
import { listedVariables, variablesConfigReads } from "../helpers/config-variables.ts";
import { parseDocument, root, walk } from "./markdown.ts";

/** Read at the process's start by glibc and Node, never by src/platform/config.ts; documented in the same table. */
const startOnlySettings = ["GLIBC_TUNABLES", "NODE_OPTIONS"];

/** The tables of docs/configuration.md, each as its rows of cell texts (header first). */
function tables(): string[][][] {
  return [...walk(parseDocument("docs/configuration.md"))]
    .filter((node): node is Table => node.type === "table")
    .map((table) => table.children.map((row) => row.children.map((cell) => textOf(cell))));
}

describe("docs/configuration.md", () => {
  const [variables, ...others] = tables();
  const documented = (variables ?? []).slice(1).map(([name]) => name as string);

  it("has one table of variables whose first column names each variable once", () => {
    expect(variables?.[0]).toEqual(["Variable", "Default", "Meaning"]);
    expect(others.every((table) => table[0]?.[0] !== "Variable")).toBe(true);
    expect(documented.every((name) => /^[A-Z][A-Z0-9_]*$/.test(name))).toBe(true);
    expect(new Set(documented).size).toBe(documented.length);
  });

  it("lists every variable src/platform/config.ts reads, NODE_ENV included", () => {
    const read = variablesConfigReads();
    expect(read).toContain("NODE_ENV");
    expect([...read].filter((name) => !documented.includes(name))).toEqual([]);
  });

  it("lists no variable src/platform/config.ts does not read, but the start-only settings", () => {
    const read = variablesConfigReads();
    expect(documented.filter((name) => !read.has(name) && !startOnlySettings.includes(name))).toEqual([]);
    for (const name of startOnlySettings) expect(documented).toContain(name);
  });

  it("lists the same variables as .env.example", () => {
    const example = readFileSync(join(root, ".env.example"), "utf8");
    expect([...documented].sort()).toEqual([...listedVariables(example)].sort());
  });

  it("states the defaults src/platform/config.ts applies", () => {
    const defaults = loadConfig({ SECRETS_KEY: "0".repeat(64) });
    const row = (name: string) => variables?.find(([variable]) => variable === name)?.[1];
    expect(row("PORT")).toBe(String(defaults.port));
    expect(row("RATE_LIMIT_USER")).toBe(String(defaults.rateLimitUser));
    expect(row("MAX_BODY_BYTES")).toBe(String(defaults.maxBodyBytes));
    expect(row("SHED_MAX_IN_FLIGHT")).toBe(String(defaults.shedMaxInFlight));
    expect(row("NODE_ENV")).toBe(defaults.environment);
  });
});
