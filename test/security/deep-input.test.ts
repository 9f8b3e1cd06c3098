import { beforeAll, describe, expect, it } from "vitest";
import { graphqlLimits } from "../../src/graphql/limits.ts";
import { maxInputDepth } from "../../src/lib/validation.ts";
import { baseUrl, type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";

let t: TestApp;
let org: SeededOrganization;

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "Deep Input");
});

/** JSON text of `depth` nested arrays (or objects `{"a": ...}`) around a string. */
function nestedJson(depth: number, kind: "array" | "object" = "array"): string {
  return kind === "array"
    ? `${"[".repeat(depth)}"x"${"]".repeat(depth)}`
    : `${'{"a":'.repeat(depth)}"x"${"}".repeat(depth)}`;
}

async function post(path: string, body: string, token?: string, contentType = "application/json") {
  const headers = new Headers({ "content-type": contentType });
  if (token) headers.set("authorization", `Bearer ${token}`);
  const response = await t.app.fetch(new Request(`${baseUrl}${path}`, { method: "POST", headers, body }));
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

function expectPublicError(response: { status: number; body: unknown }, message: RegExp) {
  expect(response.status).toBe(400);
  expect(response.body).toEqual({ error: { code: 400, message: expect.stringMatching(message) } });
}

describe("deeply nested input is a 400, never a 500", () => {
  it("refuses a JSON body nested 5000 deep on REST, with or without a token, whatever its content type", async () => {
    const path = `/v1/orgs/${org.organizationId}/spaces`;
    for (const body of [nestedJson(5000), nestedJson(5000, "object"), `{"title":${nestedJson(5000)}}`]) {
      expectPublicError(await post(path, body), /nested deeper than 64 levels/);
      expectPublicError(await post(path, body, org.members.admin.token), /nested deeper than 64 levels/);
      expectPublicError(await post(path, body, org.members.admin.token, "text/plain"), /nested deeper/);
    }
  });

  it("refuses a JSON body nested 5000 deep on /graphql", async () => {
    const query = "mutation($input: JSON) { __typename }";
    for (const body of [
      nestedJson(5000),
      `{"query":${JSON.stringify(query)},"variables":{"input":${nestedJson(5000, "object")}}}`,
    ]) {
      expectPublicError(await post("/graphql", body), /nested deeper than 64 levels/);
      expectPublicError(await post("/graphql", body, org.members.admin.token), /nested deeper than 64 levels/);
    }
  });

  it("refuses variables nested past the limit that the body check lets through, as BAD_USER_INPUT", async () => {
    const body = JSON.stringify({
      query:
        "mutation($deep: UpdateSpaceContentInput!) { updateSpaceContent(input: $deep) { contentEdit { revisionId } } }",
      variables: { deep: { spaceId: "space_x", changes: JSON.parse(nestedJson(maxInputDepth)) } },
    });
    const response = await post("/graphql", body, org.members.admin.token);
    expect(response.status).toBeLessThan(500);
    expect(response.body.errors).toEqual([
      expect.objectContaining({
        message: `Input must not be nested deeper than ${maxInputDepth} levels`,
        extensions: expect.objectContaining({ code: "BAD_USER_INPUT" }),
      }),
    ]);
  });

  it("refuses variables nested 2000 deep in a GraphQL GET request's query string", async () => {
    const url = new URL(`${baseUrl}/graphql`);
    url.searchParams.set("query", "query($id: ID!) { organization(id: $id) { id } }");
    url.searchParams.set("variables", `{"id":${nestedJson(2000)}}`);
    const response = await t.app.fetch(
      new Request(url, { headers: { authorization: `Bearer ${org.members.admin.token}` } }),
    );
    expect(response.status).toBeLessThan(500);
    expect(((await response.json()) as { errors: unknown[] }).errors).toEqual([
      expect.objectContaining({ extensions: expect.objectContaining({ code: "BAD_USER_INPUT" }) }),
    ]);
  });

  it("refuses REST bodies nested past the limit that the body check lets through", async () => {
    const response = await post(
      `/v1/orgs/${org.organizationId}/spaces`,
      JSON.stringify({ title: JSON.parse(nestedJson(maxInputDepth + 2)) }),
      org.members.admin.token,
    );
    expectPublicError(response, new RegExp(`Input must not be nested deeper than ${maxInputDepth} levels`));
  });

  it("refuses a NUL character in a REST body or path with the public error, checked once by the router", async () => {
    const nul = "Text must not contain the NUL character (\\u0000)";
    const created = await post(
      `/v1/orgs/${org.organizationId}/spaces`,
      JSON.stringify({ title: "a\u0000b" }),
      org.members.admin.token,
    );
    expect(created).toEqual({ status: 400, body: { error: { code: 400, message: nul } } });
    const read = await t.rest("GET", "/spaces/space_a%00b", { token: org.members.admin.token });
    expect({ status: read.status, body: read.body }).toEqual({
      status: 400,
      body: { error: { code: 400, message: nul } },
    });
  });

  it("refuses GraphQL value literals nested 2000 deep before parsing them", async () => {
    const objectLiteral = `${"{a: ".repeat(2000)}1${"}".repeat(2000)}`;
    const listLiteral = `${"[".repeat(2000)}1${"]".repeat(2000)}`;
    const documents = [
      `mutation { updateSpaceContent(input: { spaceId: "space_x", changes: [{ type: INSERT, page: { layout: ${objectLiteral} } }] }) { contentEdit { revisionId } } }`,
      `{ organization(id: ${listLiteral}) { id } }`,
      `{ viewer ${"{ user ".repeat(2000)} }`,
    ];
    for (const query of documents) {
      const response = await post("/graphql", JSON.stringify({ query }), org.members.admin.token);
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      expect(response.body.errors).toEqual([
        expect.objectContaining({
          message: `The document must not nest {, [ and ( deeper than ${graphqlLimits.nesting} levels`,
          extensions: expect.objectContaining({ code: "BAD_USER_INPUT" }),
        }),
      ]);
    }
  });

  it("counts neither brackets nor comments inside strings, escaped quotes and block strings included", async () => {
    const brackets = "{[(".repeat(graphqlLimits.nesting);
    const comment = `#${"x".repeat(graphqlLimits.commentCharacters)}`;
    const documents = [
      `{ __type(name: "${brackets} \\" ${comment}") { name } }`,
      `{ __type(name: """${brackets} \\""" ${comment} """) { name } }`,
    ];
    for (const query of documents) {
      const response = await post("/graphql", JSON.stringify({ query }), org.members.admin.token);
      expect(response).toMatchObject({ status: 200, body: { data: { __type: null } } });
    }
    // Past the string, the text is checked again.
    const after = `{ __type(name: "${brackets}") { name } } ${"{".repeat(graphqlLimits.nesting + 1)}`;
    const refused = await post("/graphql", JSON.stringify({ query: after }), org.members.admin.token);
    expect(refused.body.errors).toEqual([
      expect.objectContaining({
        message: `The document must not nest {, [ and ( deeper than ${graphqlLimits.nesting} levels`,
      }),
    ]);
  });

  it("refuses a document padded with comments past the limit before lexing it, and keeps ordinary comments", async () => {
    const padded = `{ __typename }\n#${"x".repeat(graphqlLimits.commentCharacters)}\n# and more`;
    const refused = await post("/graphql", JSON.stringify({ query: padded }), org.members.admin.token);
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([
      expect.objectContaining({
        message: `The document's comments must not exceed ${graphqlLimits.commentCharacters} characters`,
        extensions: expect.objectContaining({ code: "BAD_USER_INPUT" }),
      }),
    ]);
    const commented = `# what this reads\n{ __typename } # ${"why ".repeat(1000)}`;
    const served = await post("/graphql", JSON.stringify({ query: commented }), org.members.admin.token);
    expect(served.status).toBe(200);
    expect(served.body).toMatchObject({ data: { __typename: "Query" } });
  });

  it("does not count brackets inside strings, block strings and comments", async () => {
    const brackets = "{[(".repeat(200);
    const query = `# ${brackets}
      query($id: ID!) { organization(id: $id) { id } __typename }
      # """ ${brackets}`;
    const literal = `{ organization(id: "${brackets}") { id } }`;
    for (const document of [query, literal]) {
      const response = await post(
        "/graphql",
        JSON.stringify({ query: document, variables: { id: org.organizationId } }),
        org.members.admin.token,
      );
      expect(response.status).toBe(200);
      expect(JSON.stringify(response.body)).not.toMatch(/must not nest/);
    }
  });
});
