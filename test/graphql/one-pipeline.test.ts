import manifest from "@docs-management-gateway/sdk/persisted-documents.json" with { type: "json" };
import { beforeAll, describe, expect, it } from "vitest";
import { baseUrl, type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";

// Every GraphQL request runs through one pipeline (src/graphql/server.ts): first run or repeat, GET or POST, by
// registered id or by text. Its plugins (cost, labels, masking, trusted documents) apply to each alike.

let app: TestApp;
let trusted: TestApp;
let org: SeededOrganization;
let spaceId: string;

// Off: answers are compared byte for byte, and the bucket's count in `extensions.rateLimit` moves with each request.
const noPointLimit = { RATE_LIMIT_USER: "0", RATE_LIMIT_ANONYMOUS: "0" };

beforeAll(async () => {
  app = await startTestApp({ env: noPointLimit });
  trusted = await startTestApp({ db: app.db, env: { TRUSTED_DOCUMENTS_ONLY: "true", ...noPointLimit } });
  org = await seedOrganization(app.db, "Pipeline Org");
  const created = await app.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/spaces`, {
    token: org.members.admin.token,
    body: { title: "Piped" },
  });
  spaceId = created.body.id;
});

async function send(target: TestApp, init: { method?: string; search?: string; body?: unknown; accept?: string }) {
  const headers = new Headers({ authorization: `Bearer ${org.members.admin.token}` });
  if (init.body !== undefined) headers.set("content-type", "application/json");
  if (init.accept !== undefined) headers.set("accept", init.accept);
  const url = new URL(`/graphql${init.search ?? ""}`, baseUrl);
  const body = init.body === undefined ? undefined : JSON.stringify(init.body);
  const response = await target.app.fetch(new Request(url, { method: init.method ?? "POST", headers, body }));
  return {
    status: response.status,
    type: response.headers.get("content-type"),
    length: response.headers.get("content-length"),
    text: await response.text(),
  };
}

/** The value of a counter without labels in the metrics. */
async function counter(target: TestApp, name: string): Promise<number> {
  const metrics = await (await target.app.fetch(new Request(new URL("/metrics", baseUrl)))).text();
  const line = metrics.split("\n").find((entry) => entry.startsWith(`${name} `));
  return Number(line?.split(" ").at(-1));
}

/** Requests labelled with `operation` in the metrics, over every route, method and status. */
async function labelled(target: TestApp, operation: string): Promise<number> {
  const metrics = await (await target.app.fetch(new Request(new URL("/metrics", baseUrl)))).text();
  const lines = metrics.split("\n").filter((line) => line.startsWith("http_requests_total{"));
  return lines
    .filter((line) => line.includes(`operation="${operation}"`))
    .reduce((sum, line) => sum + Number(line.split(" ").at(-1)), 0);
}

const organizationsDocument = Object.entries(manifest).find(([, text]) => text.startsWith("query Organizations"));
const spaceQuery = "query PipedSpace($id: ID!) { space(id: $id) { id title } }";

describe("one GraphQL pipeline", () => {
  it("answers a registered document alike by GET ?documentId=, POST by id and POST by text, run after run", async () => {
    const [id, text] = organizationsDocument ?? [];
    if (!id || !text) throw new Error("no Organizations document in the manifest");
    const variables = { first: 5 };
    const search = `?${new URLSearchParams({ documentId: `sha256:${id}`, variables: JSON.stringify(variables) })}`;
    const before = await labelled(app, "Organizations");
    const answers = [];
    for (let run = 0; run < 2; run++) {
      answers.push(await send(app, { method: "GET", search }));
      answers.push(await send(app, { body: { documentId: `sha256:${id}`, variables } }));
      answers.push(await send(app, { body: { query: text, variables } }));
    }
    const [first] = answers;
    expect(JSON.parse(first?.text ?? "{}").data.organizations.nodes).toContainEqual(
      expect.objectContaining({ id: org.organizationId }),
    );
    for (const answer of answers) expect(answer).toEqual(first);
    // The operation-label plugin labelled every one of them, GET and repeats included.
    expect(await labelled(app, "Organizations")).toBe(before + answers.length);
  });

  it("answers a query's repeats as its first run, for every Accept", async () => {
    const body = { query: spaceQuery, variables: { id: spaceId }, operationName: "PipedSpace" };
    for (const accept of [undefined, "*/*", "application/json", "application/graphql-response+json"]) {
      const first = await send(app, { body, accept });
      expect(JSON.parse(first.text).data.space).toEqual({ id: spaceId, title: "Piped" });
      expect(Number(first.length)).toBe(Buffer.byteLength(first.text));
      expect(await send(app, { body, accept })).toEqual(first);
    }
  });

  it("runs a repeat whose result has errors once: the statements of one run, its errors masked", async () => {
    const query = "query TwoSpaces($a: ID!, $b: ID!) { a: space(id: $a) { id title } b: space(id: $b) { id title } }";
    const failing = { query, variables: { a: spaceId, b: "space_missing" } };
    const statements = async () => {
      const start = app.db.statementCount();
      const answer = await send(app, { body: failing });
      return { count: app.db.statementCount() - start, answer: JSON.parse(answer.text) };
    };
    const first = await statements();
    const repeat = await statements();
    expect(repeat.count).toBe(first.count);
    expect(repeat.answer).toEqual(first.answer);
    expect(repeat.answer.data).toEqual({ a: { id: spaceId, title: "Piped" }, b: null });
    expect(repeat.answer.errors).toEqual([
      expect.objectContaining({ path: ["b"], extensions: { code: "NOT_FOUND", status: 404 } }),
    ]);
    expect(repeat.answer.extensions.cost).toEqual({
      requested: expect.any(Number),
      actual: expect.any(Number),
      nodeCount: expect.any(Number),
      limit: 10_000_000,
    });
  });

  it("refuses a refused document again on its repeats, and charges a refused cost each time", async () => {
    const tooDeep = { query: `{ ${"viewer { organizations(first: 1) { nodes { ".repeat(4)}id${" } } }".repeat(4)} }` };
    const refused = await send(app, { body: tooDeep });
    expect(JSON.parse(refused.text).errors).toBeDefined();
    expect(await send(app, { body: tooDeep })).toEqual(refused);
  });

  it("answers repeats of a query that ran without errors past yoga's HTTP layer, and nothing else", async () => {
    const query = "query RepeatedSpace($id: ID!) { space(id: $id) { id title } }";
    const body = { query, variables: { id: spaceId } };
    const repeats = () => counter(app, "graphql_repeated_queries_total");
    const before = await repeats();
    const first = await send(app, { body });
    expect(await repeats()).toBe(before);
    expect(await send(app, { body })).toEqual(first);
    expect(await send(app, { body: { ...body, variables: { id: "space_missing" } } })).toMatchObject({ status: 200 });
    expect(await repeats()).toBe(before + 2);
    // Not repeats: another operation name, extensions, a batch, a mutation: yoga answers each in full.
    await send(app, { body: { ...body, operationName: "RepeatedSpace" } });
    await send(app, { body: { ...body, extensions: {} } });
    await send(app, { body: [body] });
    const rename = {
      query: 'mutation Rename($id: ID!) { updateSpace(input: { spaceId: $id, title: "Piped" }) { space { id } } }',
    };
    for (let run = 0; run < 2; run++) await send(app, { body: { ...rename, variables: { id: spaceId } } });
    expect(await repeats()).toBe(before + 2);
    // A browser asking for the page of an admitted GET still gets GraphiQL.
    const search = `?${new URLSearchParams({ query, variables: JSON.stringify(body.variables) })}`;
    await send(app, { method: "GET", search });
    const page = await send(app, { method: "GET", search, accept: "text/html,application/xhtml+xml,*/*;q=0.8" });
    expect(page.type).toMatch(/^text\/html/);
    expect(await send(app, { method: "GET", search })).toEqual(await send(app, { body }));
  });

  it("serves registered documents by id over GET and POST under TRUSTED_DOCUMENTS_ONLY, and refuses their text", async () => {
    const [id, text] = organizationsDocument ?? [];
    if (!id || !text) throw new Error("no Organizations document in the manifest");
    const byId = { documentId: `sha256:${id}`, variables: { first: 5 } };
    const search = `?${new URLSearchParams({ documentId: byId.documentId, variables: JSON.stringify(byId.variables) })}`;
    const first = await send(trusted, { body: byId });
    expect(JSON.parse(first.text).data.organizations).toBeDefined();
    expect(await send(trusted, { body: byId })).toEqual(first);
    expect(await send(trusted, { method: "GET", search })).toEqual(first);
    const asText = { query: text, variables: { first: 5 } };
    const refusedOnce = await send(trusted, { body: asText });
    expect(refusedOnce.status).toBe(400);
    expect(await send(trusted, { body: asText })).toEqual(refusedOnce);
  });
});
