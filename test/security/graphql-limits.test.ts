import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { graphqlLimits, maxBatchedOperations } from "../../src/graphql/limits.ts";
import { baseUrl, type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";

let t: TestApp;
let org: SeededOrganization;

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "Limits");
  // The token is read on its first request and cached after: the requests measured below send no statement before
  // their operation runs.
  await send({ query: "{ viewer { id } }" });
});

/** The product's signature nested read, taken from its own test so the two never drift apart. */
const signatureQuery = (() => {
  const source = readFileSync(new URL("../graphql/site-structure-nested-read.test.ts", import.meta.url), "utf8");
  return (/graphql\(`([\s\S]*?)`\)/.exec(source) as RegExpExecArray)[1] as string;
})();

interface GraphQLBody {
  data?: unknown;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
}

async function send(body: unknown, app = t) {
  const before = t.db.statementCount();
  const response = await app.app.fetch(
    new Request(`${baseUrl}/graphql`, {
      method: "POST",
      headers: { authorization: `Bearer ${org.members.admin.token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
  );
  const json = (await response.json()) as GraphQLBody | GraphQLBody[];
  return { status: response.status, json, statements: t.db.statementCount() - before };
}

async function rejected(query: string, message: RegExp) {
  const { json, statements } = await send({ query });
  const body = json as GraphQLBody;
  expect(body.data).toBeUndefined();
  expect(body.errors?.map((error) => error.message).join("\n")).toMatch(message);
  expect(statements).toBe(0);
}

/** Member -> teams -> members -> organization (a member) -> teams ...: a cycle that nests as deep as asked. */
function deepQuery(cycles: number): string {
  const open = "teams { nodes { members { nodes { organization { ".repeat(cycles);
  const close = "} } } } } ".repeat(cycles);
  return `{ organization(id: "${org.organizationId}") { members { nodes { ${open} id ${close} } } } }`;
}

describe("GraphQL limits", () => {
  it("lets the signature nested read through", async () => {
    const { status, json } = await send({ query: signatureQuery, variables: { id: org.organizationId } });
    expect(status).toBe(200);
    expect((json as GraphQLBody).errors).toBeUndefined();
  });

  it("rejects a query deeper than the limit before any resolver runs", async () => {
    await rejected(deepQuery(3), new RegExp(`depth limit of ${graphqlLimits.depth} exceeded`));
  });

  it("rejects too many aliases", async () => {
    const aliases = Array.from({ length: graphqlLimits.aliases + 1 }, (_, i) => `a${i}: viewer { user { id } }`).join(
      " ",
    );
    await rejected(`{ ${aliases} }`, /Aliases limit/);
  });

  it("rejects too many directives", async () => {
    const directives = "@include(if: true) ".repeat(graphqlLimits.directives + 1);
    await rejected(`{ viewer { user { id ${directives} } } }`, /Directives limit/);
  });

  it("rejects documents of too many tokens while parsing", async () => {
    await rejected(`{ viewer { user { ${"id ".repeat(graphqlLimits.tokens)} } } }`, /Token limit/);
  });

  it("rejects queries whose pages multiply beyond the cost limit", async () => {
    const query = `{ organizations(first: 1000) { nodes { members(first: 1000) { nodes { teams(first: 1000) {
      nodes { team { id title } } } } } } } }`;
    await rejected(query, /Cost limit/);
  });

  it("refuses NUL characters in variables and in string literals before any SQL", async () => {
    const literal = await send({ query: '{ organization(id: "org_\\u0000") { id } }' });
    const variable = await send({
      query: "query($id: ID!) { organization(id: $id) { id } }",
      variables: { id: "\u0000" },
    });
    for (const { json, statements } of [literal, variable]) {
      expect((json as GraphQLBody).errors?.[0]).toMatchObject({ extensions: { code: "BAD_USER_INPUT" } });
      expect(statements).toBe(0);
    }
  });

  it("caps first and last at 1000 like REST's limit", async () => {
    const { json } = await send({ query: "{ organizations(first: 1001) { totalCount } }" });
    expect((json as GraphQLBody).errors?.[0]).toMatchObject({
      message: "first must be an integer between 0 and 1000",
      extensions: { code: "BAD_USER_INPUT" },
    });
  });

  it("hides field suggestions outside development", async () => {
    const { json } = await send({ query: "{ viewr { id } }" });
    const message = (json as GraphQLBody).errors?.[0]?.message ?? "";
    expect(message).toMatch(/Cannot query field/);
    expect(message).not.toMatch(/Did you mean/);
    const development = await startTestApp({ db: t.db, env: { NODE_ENV: "development" } });
    const { json: suggested } = await send({ query: "{ viewr { id } }" }, development);
    expect((suggested as GraphQLBody).errors?.[0]?.message).toMatch(/Did you mean "viewer"/);
  });

  it(`accepts batches of up to ${maxBatchedOperations} operations and refuses larger ones`, async () => {
    const batch = (size: number) => Array.from({ length: size }, () => ({ query: "{ viewer { user { id } } }" }));
    const accepted = await send(batch(maxBatchedOperations));
    expect(accepted.status).toBe(200);
    expect(accepted.json).toHaveLength(maxBatchedOperations);
    for (const result of accepted.json as GraphQLBody[]) expect(result.errors).toBeUndefined();
    const refused = await send(batch(maxBatchedOperations + 1));
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    expect(refused.statements).toBe(0);
  });
});
