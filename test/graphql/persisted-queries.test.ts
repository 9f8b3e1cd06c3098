import { createHash } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApolloClient, gql, HttpLink, InMemoryCache } from "@apollo/client";
import { createPersistedQueryLink } from "@apollo/client/link/persisted-queries";
import { parse, print } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { trustedDocumentsPlugin } from "../../src/graphql/trusted-documents.ts";
import { loadConfig } from "../../src/platform/config.ts";
import { listen, type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";

/*
 * Persisted queries for every front end, against a live server: Apollo's automatic persisted queries (its own
 * link, unchanged) when trusted documents are not enforced, and a front end's own manifest (codegen's
 * `persistedDocuments` output) registered by the operator and honoured under TRUSTED_DOCUMENTS_ONLY.
 */

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

// Written with the `__typename`s Apollo's cache adds, so the text it hashes is this one printed.
const OrganizationTitle = `query FrontEndOrganization($id: ID!) { organization(id: $id) { __typename id title } }`;
const printed = print(parse(OrganizationTitle));

/** A front end's manifest as GraphQL Code Generator's client preset writes it (`persistedDocuments`). */
const manifestDir = mkdtempSync(join(tmpdir(), "front-end-manifest-"));
const manifestPath = join(manifestDir, "persisted-documents.json");
writeFileSync(manifestPath, JSON.stringify({ [sha256(printed)]: printed }));

interface Sent {
  query?: string;
  extensions?: { persistedQuery?: { sha256Hash?: string } };
  documentId?: string;
}

let open: TestApp;
let trusted: TestApp;
let org: SeededOrganization;
const servers: { url: string; close(): Promise<void> }[] = [];

beforeAll(async () => {
  open = await startTestApp();
  trusted = await startTestApp({
    db: open.db,
    env: { TRUSTED_DOCUMENTS_ONLY: "true", TRUSTED_DOCUMENTS_FILES: manifestPath },
  });
  org = await seedOrganization(open.db, "Persisted Org");
  for (const app of [open, trusted]) servers.push(await listen(app.app));
});

afterAll(async () => {
  for (const server of servers) await server.close();
});

/** An Apollo client with its persisted query link, recording what it sent and what it was answered. */
function apolloClient(url: string) {
  const exchanges: { sent: Sent; status: number; codes: string[] }[] = [];
  const recordingFetch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const answer = (await response.clone().json()) as { errors?: { extensions?: { code?: string } }[] };
    exchanges.push({
      sent: JSON.parse(String(init?.body)) as Sent,
      status: response.status,
      codes: (answer.errors ?? []).map((error) => String(error.extensions?.code)),
    });
    return response;
  };
  const link = createPersistedQueryLink({ sha256: async (text: string) => sha256(text) }).concat(
    new HttpLink({
      uri: `${url}/graphql`,
      headers: { authorization: `Bearer ${org.members.read.token}` },
      fetch: recordingFetch,
    }),
  );
  return { client: new ApolloClient({ link, cache: new InMemoryCache() }), exchanges };
}

describe("automatic persisted queries (Apollo's link)", () => {
  it("a miss answers PERSISTED_QUERY_NOT_FOUND, the link resends the text, then the hash alone is served", async () => {
    const { client, exchanges } = apolloClient(servers[0]?.url as string);
    const query = gql(OrganizationTitle);
    const first = await client.query({ query, variables: { id: org.organizationId } });
    expect(first.data).toEqual({
      organization: { __typename: "Organization", id: org.organizationId, title: "Persisted Org" },
    });
    expect(
      exchanges.map(({ sent, status, codes }) => [Boolean(sent.query), sent.extensions?.persistedQuery, status, codes]),
    ).toEqual([
      [false, { version: 1, sha256Hash: sha256(printed) }, 404, ["PERSISTED_QUERY_NOT_FOUND"]],
      [true, { version: 1, sha256Hash: sha256(printed) }, 200, []],
    ]);

    // Another client (another browser) sends the hash alone and is served at once.
    const other = apolloClient(servers[0]?.url as string);
    const again = await other.client.query({ query, variables: { id: org.organizationId } });
    expect(again.data).toEqual(first.data);
    expect(other.exchanges.map(({ sent, status }) => [Boolean(sent.query), status])).toEqual([[false, 200]]);
  });

  it("refuses a text whose SHA-256 is not the hash sent", async () => {
    const response = await open.app.fetch(
      new Request("http://gateway.test/graphql", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${org.members.read.token}` },
        body: JSON.stringify({
          query: "{ viewer { user { id } } }",
          extensions: { persistedQuery: { version: 1, sha256Hash: sha256(printed) } },
        }),
      }),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ errors: [{ extensions: { code: "BAD_USER_INPUT" } }] });
  });
});

describe("a front end's manifest registered by the operator (TRUSTED_DOCUMENTS_FILES)", () => {
  it("runs under TRUSTED_DOCUMENTS_ONLY: Apollo's hash alone, and codegen's documentId", async () => {
    const { client, exchanges } = apolloClient(servers[1]?.url as string);
    const answer = await client.query({ query: gql(OrganizationTitle), variables: { id: org.organizationId } });
    expect(answer.data).toMatchObject({ organization: { title: "Persisted Org" } });
    expect(exchanges.map(({ sent, status }) => [Boolean(sent.query), status])).toEqual([[false, 200]]);

    const byId = await trusted.app.fetch(
      new Request("http://gateway.test/graphql", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${org.members.read.token}` },
        body: JSON.stringify({ documentId: sha256(printed), variables: { id: org.organizationId } }),
      }),
    );
    expect(await byId.json()).toMatchObject({ data: { organization: { title: "Persisted Org" } } });
  });

  it("an unregistered hash is not learnt under TRUSTED_DOCUMENTS_ONLY: the text stays refused", async () => {
    const { client, exchanges } = apolloClient(servers[1]?.url as string);
    const unregistered = gql`query FrontEndViewer { viewer { __typename user { __typename id } } }`;
    await expect(client.query({ query: unregistered })).rejects.toThrow();
    expect(exchanges.map(({ sent, codes }) => [Boolean(sent.query), codes])).toEqual([
      [false, ["PERSISTED_DOCUMENT_NOT_FOUND"]],
    ]);
  });

  it("a manifest that does not parse stops the start, naming the file", () => {
    const broken = join(manifestDir, "broken.json");
    writeFileSync(broken, JSON.stringify({ abc: "query {" }));
    const config = loadConfig({ TRUSTED_DOCUMENTS_FILES: broken, SECRETS_KEY: "0".repeat(64) });
    expect(() => trustedDocumentsPlugin(config)).toThrow(/broken\.json: abc does not parse/);
  });
});
