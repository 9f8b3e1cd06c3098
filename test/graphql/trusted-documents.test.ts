import { readFileSync } from "node:fs";
import manifest from "@docs-management-gateway/sdk/persisted-documents.json" with { type: "json" };
import { parse } from "graphql";
import { beforeAll, describe, expect, it } from "vitest";
import { schema } from "../../src/app/schema.ts";
import { persistedDocumentsOf } from "../../src/graphql/trusted-documents.ts";
import { estimateCost } from "../../src/lib/query-cost.ts";
import { baseUrl, type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";

interface GraphQLBody {
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions?: { code?: string } }[];
  extensions?: { cost?: { requested: number; nodeCount: number } };
}

let open: TestApp;
let trusted: TestApp;
let org: SeededOrganization;

const idOf = (operationName: string) => {
  const entry = Object.entries(manifest).find(([, text]) => text.startsWith(`query ${operationName}`));
  if (!entry) throw new Error(`${operationName} is not in the manifest`);
  return entry[0];
};

beforeAll(async () => {
  open = await startTestApp();
  trusted = await startTestApp({ db: open.db, env: { TRUSTED_DOCUMENTS_ONLY: "true" } });
  org = await seedOrganization(open.db, "Trusted Org");
});

async function call(app: TestApp, init: { method?: string; search?: Record<string, string>; body?: unknown }) {
  const url = new URL("/graphql", baseUrl);
  for (const [name, value] of Object.entries(init.search ?? {})) url.searchParams.set(name, value);
  const headers = new Headers({ authorization: `Bearer ${org.members.admin.token}`, accept: "application/json" });
  if (init.body !== undefined) headers.set("content-type", "application/json");
  const response = await app.app.fetch(
    new Request(url, {
      method: init.method ?? "POST",
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    }),
  );
  return { status: response.status, body: (await response.json()) as GraphQLBody };
}

describe("persisted (trusted) documents", () => {
  it("keeps the committed manifest equal to the SDK's operations (npm run sdk:documents)", () => {
    const source = readFileSync(new URL("../../packages/sdk/src/operations.graphql", import.meta.url), "utf8");
    expect(manifest).toEqual(persistedDocumentsOf(source));
    // One document per named operation of the SDK (fragments travel inside the documents that spread them).
    const operations = source.match(/^(query|mutation|subscription) \w+/gm) ?? [];
    expect(operations.length).toBeGreaterThan(0);
    expect(Object.keys(manifest)).toHaveLength(operations.length);
  });

  it("serves a registered document sent by id alone: documentId in a POST body, in a GET URL, or Apollo's hash", async () => {
    const id = idOf("Organizations");
    const variables = { first: 5 };
    const posted = await call(open, { body: { documentId: `sha256:${id}`, variables } });
    const got = await call(open, {
      method: "GET",
      search: { documentId: `sha256:${id}`, variables: JSON.stringify(variables) },
    });
    const apollo = await call(open, {
      body: { variables, extensions: { persistedQuery: { version: 1, sha256Hash: id } } },
    });
    for (const { status, body } of [posted, got, apollo]) {
      expect(status).toBe(200);
      expect(body.errors).toBeUndefined();
      const organizations = body.data?.organizations as { nodes: { id: string }[] };
      expect(organizations.nodes.map((node) => node.id)).toContain(org.organizationId);
      // The registered document is costed like any other.
      const text = manifest[id as keyof typeof manifest];
      expect(body.extensions?.cost?.nodeCount).toBe(estimateCost(schema, parse(text), variables));
    }
  });

  it("refuses an unknown id with a 400 that says what to send", async () => {
    const { status, body } = await call(open, { body: { documentId: `sha256:${"0".repeat(64)}` } });
    expect(status).toBe(400);
    expect(body.errors?.[0]?.extensions?.code).toBe("PERSISTED_DOCUMENT_NOT_FOUND");
    expect(body.errors?.[0]?.message).toMatch(/No registered document has this id/);
  });

  it("runs ad-hoc documents by default", async () => {
    const { status, body } = await call(open, { body: { query: "{ viewer { user { id } } }" } });
    expect(status).toBe(200);
    expect(body.data).toEqual({ viewer: { user: { id: org.members.admin.id } } });
  });

  describe("with TRUSTED_DOCUMENTS_ONLY=true", () => {
    it("refuses an ad-hoc document and runs a registered one", async () => {
      const adHoc = await call(trusted, { body: { query: "{ viewer { user { id } } }" } });
      expect(adHoc.status).toBe(400);
      expect(adHoc.body.errors?.[0]?.extensions?.code).toBe("TRUSTED_DOCUMENTS_ONLY");
      expect(adHoc.body.errors?.[0]?.message).toMatch(/only registered documents/);
      expect(adHoc.body.data).toBeUndefined();

      const registered = await call(trusted, { method: "GET", search: { documentId: `sha256:${idOf("Viewer")}` } });
      expect(registered.status).toBe(200);
      expect(registered.body.data).toEqual({
        viewer: {
          id: "Query/viewer",
          user: { id: org.members.admin.id, displayName: expect.any(String), email: org.members.admin.email },
        },
      });
    });

    it("keeps REST working: its routes run their own documents", async () => {
      const token = org.members.admin.token;
      const created = await trusted.rest<{ id: string; title: string }>("POST", `/orgs/${org.organizationId}/spaces`, {
        token,
        body: { title: "Under trusted documents" },
      });
      expect(created.status).toBe(201);
      const read = await trusted.rest<{ title: string }>("GET", `/spaces/${created.body.id}`, { token });
      expect(read.status).toBe(200);
      expect(read.body.title).toBe("Under trusted documents");
      const list = await trusted.rest<{ items: { id: string }[] }>("GET", `/orgs/${org.organizationId}/spaces`, {
        token,
      });
      expect(list.body.items.map((space) => space.id)).toContain(created.body.id);
    });
  });
});
