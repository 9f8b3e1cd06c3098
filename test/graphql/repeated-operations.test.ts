import manifest from "@docs-management-gateway/sdk/persisted-documents.json" with { type: "json" };
import { beforeAll, describe, expect, it } from "vitest";
import { baseUrl, type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";

// A query yoga ran without errors is answered on its repeats without yoga's HTTP layer
// (src/graphql/repeated-operations.ts). Each repeat's answer is compared with yoga's answer to the same request:
// a body with `"extensions": {}` is never a repeat, so yoga answers it.

let app: TestApp;
let trusted: TestApp;
let org: SeededOrganization;
let spaceId: string;

beforeAll(async () => {
  app = await startTestApp();
  trusted = await startTestApp({ db: app.db, env: { TRUSTED_DOCUMENTS_ONLY: "true" } });
  org = await seedOrganization(app.db, "Repeats Org");
  const created = await app.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/spaces`, {
    token: org.members.admin.token,
    body: { title: "Repeated" },
  });
  spaceId = created.body.id;
});

async function post(target: TestApp, body: unknown, accept?: string) {
  const headers = new Headers({
    authorization: `Bearer ${org.members.admin.token}`,
    "content-type": "application/json",
  });
  if (accept !== undefined) headers.set("accept", accept);
  const response = await target.app.fetch(
    new Request(new URL("/graphql", baseUrl), { method: "POST", headers, body: JSON.stringify(body) }),
  );
  return { status: response.status, type: response.headers.get("content-type"), text: await response.text() };
}

/** Yoga's own answer to `body`: a body with extensions is never answered as a repeat. */
const yogaAnswer = (target: TestApp, body: object, accept?: string) =>
  post(target, { ...body, extensions: {} }, accept);

async function repeats(target: TestApp): Promise<number> {
  const metrics = await (await target.app.fetch(new Request(new URL("/metrics", baseUrl)))).text();
  return Number(/^graphql_repeated_operations_total (\d+)/m.exec(metrics)?.[1]);
}

const spaceQuery = "query RepeatedSpace($id: ID!) { space(id: $id) { id title } }";

describe("repeated queries", () => {
  it("answers a query's repeats without yoga, exactly as yoga answers them, for every Accept", async () => {
    const body = { query: spaceQuery, variables: { id: spaceId }, operationName: "RepeatedSpace" };
    const before = await repeats(app);
    const first = await post(app, body);
    expect(await repeats(app)).toBe(before);
    expect(JSON.parse(first.text).data.space).toEqual({ id: spaceId, title: "Repeated" });
    const accepts = [
      undefined,
      "*/*",
      "application/json",
      "application/graphql-response+json, application/json",
      "application/json;q=0.9, application/graphql-response+json",
    ];
    for (const accept of accepts) {
      const repeated = await post(app, body, accept);
      expect(repeated).toEqual(await yogaAnswer(app, body, accept));
    }
    expect(await repeats(app)).toBe(before + accepts.length);
  });

  it("answers a repeat whose result has errors as yoga does; refused variables go to yoga, cost charged once", async () => {
    const body = { query: spaceQuery, variables: { id: spaceId } };
    await post(app, body);
    const before = await repeats(app);
    for (const variables of [{ id: "space_missing" }, { id: "a\u0000b" }, {}]) {
      const repeated = await post(app, { ...body, variables });
      expect(repeated).toEqual(await yogaAnswer(app, { ...body, variables }));
      expect(JSON.parse(repeated.text).errors).toHaveLength(1);
    }
    const missing = JSON.parse((await post(app, { ...body, variables: { id: "space_missing" } })).text);
    expect(missing.extensions.cost.requested).toBe(JSON.parse((await post(app, body)).text).extensions.cost.requested);
    // The missing space's two repeats (its result has data beside the error) and the last one without errors.
    expect(await repeats(app)).toBe(before + 3);
  });

  it("runs a repeat whose result has errors once: the statements of one run, on one cost budget", async () => {
    const query = "query TwoSpaces($a: ID!, $b: ID!) { a: space(id: $a) { id title } b: space(id: $b) { id title } }";
    await post(app, { query, variables: { a: spaceId, b: spaceId } });
    const failing = { query, variables: { a: spaceId, b: "space_missing" } };
    const statements = async (run: () => Promise<unknown>) => {
      const start = app.db.statementCount();
      await run();
      return app.db.statementCount() - start;
    };
    const byYoga = await statements(() => yogaAnswer(app, failing));
    const before = await repeats(app);
    let repeated: Awaited<ReturnType<typeof post>> | undefined;
    const asRepeat = await statements(async () => {
      repeated = await post(app, failing);
    });
    expect(await repeats(app)).toBe(before + 1);
    expect(asRepeat).toBe(byYoga);
    const answer = JSON.parse(repeated?.text ?? "{}");
    expect(answer.data).toEqual({ a: { id: spaceId, title: "Repeated" }, b: null });
    expect(answer.errors).toEqual([
      expect.objectContaining({ path: ["b"], extensions: { code: "NOT_FOUND", status: 404 } }),
    ]);
    expect(answer.extensions.cost).toEqual({
      requested: expect.any(Number),
      actual: expect.any(Number),
      nodeCount: expect.any(Number),
      limit: 10_000_000,
    });
  });

  it("never repeats mutations, batches, @defer, other content types or documents yoga refused", async () => {
    const before = await repeats(app);
    const mutation = {
      query:
        'mutation ($org: ID!) { createCollection(organizationId: $org, input: { title: "Twice" }) { __typename } }',
      variables: { org: org.organizationId },
    };
    await post(app, mutation);
    await post(app, mutation);
    const collections = await app.db.prisma.collection.count({ where: { organizationId: org.organizationId } });
    expect(collections).toBe(2);
    const batch = [{ query: spaceQuery, variables: { id: spaceId } }];
    await post(app, batch);
    await post(app, batch);
    const tooDeep = { query: `{ ${"viewer { organizations(first: 1) { nodes { ".repeat(4)}id${" } } }".repeat(4)} }` };
    const refused = await post(app, tooDeep);
    expect(JSON.parse(refused.text).errors).toBeDefined();
    expect(await post(app, tooDeep)).toEqual(refused);
    const deferred = { query: `query { space(id: "${spaceId}") { id ... @defer { title } } }` };
    await post(app, deferred, "multipart/mixed");
    await post(app, deferred, "multipart/mixed");
    const response = await app.app.fetch(
      new Request(new URL("/graphql", baseUrl), {
        method: "POST",
        headers: { authorization: `Bearer ${org.members.admin.token}`, "content-type": "application/graphql+json" },
        body: JSON.stringify({ query: spaceQuery, variables: { id: spaceId } }),
      }),
    );
    expect(response.status).toBeLessThan(500);
    expect(await repeats(app)).toBe(before);
  });

  it("repeats a registered document sent by id, and TRUSTED_DOCUMENTS_ONLY still refuses its text", async () => {
    const [id, text] =
      Object.entries(manifest).find(([, document]) => document.startsWith("query Organizations")) ?? [];
    if (!id || !text) throw new Error("no Organizations document in the manifest");
    const byId = { documentId: `sha256:${id}`, variables: { first: 5 } };
    const first = await post(trusted, byId);
    expect(JSON.parse(first.text).data.organizations).toBeDefined();
    const before = await repeats(trusted);
    expect(await post(trusted, byId)).toEqual(first);
    expect(await repeats(trusted)).toBe(before + 1);
    const asText = { query: text, variables: { first: 5 } };
    const refusedOnce = await post(trusted, asText);
    expect(refusedOnce.status).toBe(400);
    expect(await post(trusted, asText)).toEqual(refusedOnce);
    expect(await repeats(trusted)).toBe(before + 1);
  });
});
