import { describe, expect, it } from "vitest";
import { baseUrl, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";

/*
 * The caches keyed by a GraphQL document's text (yoga's parse and parse-error caches, graphql-jit's compiled
 * operations, the repeats' admitted queries) are bounded by the bytes of text they hold: distinct texts of a
 * megabyte each (a small query padded with a long alias or comment) used to stay, a thousand of them per cache.
 */

/**
 * The texts' size. The caches' rules hold at any size; 100 KB texts keep the file's 20 requests to a second or two of
 * CPU (1 MB texts, as reported, took 44 s on a loaded 2-core host: graphql-jit compiles each alias into its source).
 */
const unit = 100_000;

/**
 * A small query padded to `bytes` with an alias of its own (a name is one token, whatever its length; a long comment
 * is refused before parsing, test/security/deep-input.test.ts): each text distinct.
 */
const paddedQuery = (index: number, bytes = unit) =>
  `query Padded${index} { organizations(first: 1) { nodes { id } } p${String(index).repeat(bytes / String(index).length)}: __typename }`;

async function send(t: TestApp, token: string, query: string) {
  const response = await t.app.fetch(
    new Request(`${baseUrl}/graphql`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ query }),
    }),
  );
  const body = (await response.json()) as { data?: unknown; errors?: unknown[] };
  expect(response.status).toBe(200);
  expect(body.errors).toBeUndefined();
}

async function cacheBytes(t: TestApp): Promise<Record<string, number>> {
  const text = await (await t.app.fetch(new Request(`${baseUrl}/metrics`))).text();
  return Object.fromEntries(
    [...text.matchAll(/^cache_bytes\{cache="([a-z_]+)"\} (\d+)$/gm)].map((m) => [m[1], Number(m[2])]),
  );
}

const graphqlCaches = ["graphql_documents", "graphql_parse_errors", "graphql_compiled"];

describe("GraphQL document caches", () => {
  it("hold at most their byte budget after many distinct large texts", async () => {
    const budget = 3 * unit;
    const t = await startTestApp({
      env: { GRAPHQL_CACHE_BYTES: String(budget), GRAPHQL_CACHE_MAX_DOCUMENT_BYTES: String(2 * unit) },
    });
    const token = (await seedOrganization(t.db, "Budget Org")).members.admin.token;
    for (let index = 1; index <= 8; index++) {
      // Twice each: the second is served from the caches.
      await send(t, token, paddedQuery(index));
      await send(t, token, paddedQuery(index));
    }
    const bytes = await cacheBytes(t);
    for (const cache of graphqlCaches) expect(bytes[cache]).toBeLessThanOrEqual(budget);
    // They do cache such texts, up to the budget: two of the eight, the latest.
    expect(bytes.graphql_documents).toBeGreaterThan(2 * unit);
    expect(bytes.graphql_compiled).toBeGreaterThan(2 * unit);
  });

  it("run texts above the size limit without keeping them, and keep small ones", async () => {
    // Texts of 150 KB: above GRAPHQL_CACHE_MAX_DOCUMENT_BYTES's default of 100 KiB.
    const t = await startTestApp();
    const token = (await seedOrganization(t.db, "Limit Org")).members.admin.token;
    for (let index = 1; index <= 4; index++) await send(t, token, paddedQuery(index, 1.5 * unit));
    const small = "query Small { organizations(first: 1) { nodes { id title } } }";
    await send(t, token, small);
    await send(t, token, small);
    const bytes = await cacheBytes(t);
    for (const cache of ["graphql_documents", "graphql_compiled"]) {
      expect(bytes[cache]).toBeGreaterThan(0);
      expect(bytes[cache]).toBeLessThan(100 * 1024);
    }
  });
});
