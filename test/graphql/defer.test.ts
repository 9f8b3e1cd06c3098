import { parse } from "graphql";
import { beforeAll, describe, expect, it } from "vitest";
import { schema } from "../../src/app/schema.ts";
import { estimateCost } from "../../src/lib/query-cost.ts";
import { baseUrl, type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";

let t: TestApp;
let org: SeededOrganization;

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "Deferred Org");
  const token = org.members.admin.token;
  const space = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/spaces`, {
    token,
    body: { title: "Reference" },
  });
  const site = await t.rest("POST", `/orgs/${org.organizationId}/sites`, {
    token,
    body: { title: "Deferred Docs", spaces: [space.body.id] },
  });
  expect(site.status).toBe(201);
});

/** The JSON parts of a `multipart/mixed` response (GraphQL incremental delivery over HTTP). */
function multipartParts(text: string): Record<string, unknown>[] {
  return text
    .split("\r\n---")
    .map((part) => part.slice(part.indexOf("\r\n\r\n") + 4).trim())
    .filter((body) => body.startsWith("{"))
    .map((body) => JSON.parse(body) as Record<string, unknown>);
}

const deferredStructure = `query DeferredStructure($id: ID!) {
  organization(id: $id) {
    title
    sites(first: 10) {
      nodes {
        title
        ... @defer(label: "siteSpaces") {
          siteSpaces(first: 20) { totalCount nodes { path space { title } } }
        }
      }
    }
  }
}`;

describe("@defer on the nested site-structure read", () => {
  it("answers the site titles first, then the deferred site spaces, as multipart/mixed", async () => {
    const variables = { id: org.organizationId };
    const response = await t.app.fetch(
      new Request(`${baseUrl}/graphql`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${org.members.admin.token}`,
          "content-type": "application/json",
          accept: "multipart/mixed",
        },
        body: JSON.stringify({ query: deferredStructure, variables }),
      }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^multipart\/mixed/);
    const [initial, ...later] = multipartParts(await response.text());

    expect(initial).toMatchObject({
      data: { organization: { title: "Deferred Org", sites: { nodes: [{ title: "Deferred Docs" }] } } },
      hasNext: true,
      // Costed by the same estimator, on the first part.
      extensions: { cost: { nodeCount: estimateCost(schema, parse(deferredStructure), variables) } },
    });
    const site = (initial?.data as { organization: { sites: { nodes: Record<string, unknown>[] } } }).organization.sites
      .nodes[0];
    expect(site).not.toHaveProperty("siteSpaces");

    expect(later.at(-1)).toMatchObject({ hasNext: false });
    const delivered = later.flatMap((part) => (part.incremental as Record<string, unknown>[] | undefined) ?? []);
    expect(delivered).toEqual([
      {
        label: "siteSpaces",
        path: ["organization", "sites", "nodes", 0],
        data: { siteSpaces: { totalCount: 1, nodes: [{ path: expect.any(String), space: { title: "Reference" } }] } },
      },
    ]);
  });

  it("explains a 406 to a client that accepts only JSON", async () => {
    const response = await t.app.fetch(
      new Request(`${baseUrl}/graphql`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${org.members.admin.token}`,
          "content-type": "application/json",
          accept: "application/json",
        },
        body: JSON.stringify({ query: deferredStructure, variables: { id: org.organizationId } }),
      }),
    );
    expect(response.status).toBe(406);
    expect(await response.json()).toEqual({ error: { code: 406, message: expect.stringMatching(/multipart\/mixed/) } });
  });
});
