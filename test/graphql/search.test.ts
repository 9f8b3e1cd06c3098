import { GitBookAPI } from "@gitbook/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { graphql } from "../generated/gql.ts";
import { listen, type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { expectMatchesSpec } from "../helpers/contract.ts";

const SearchSpace = graphql(`
  query SearchTestSpace($spaceId: ID!, $query: String!, $first: Int, $after: String) {
    space(id: $spaceId) {
      searchSpaceContent(query: $query, first: $first, after: $after) {
        totalCount
        pageInfo { hasNextPage endCursor }
        nodes { id: pageId title path score ancestors { title } sections { id: anchor path } urls { app } }
      }
    }
  }
`);

const SearchOrganization = graphql(`
  query SearchTestOrganization($organizationId: ID!, $query: String!) {
    organization(id: $organizationId) {
      searchOrganizationContent(query: $query, first: 10) {
        totalCount
        nodes { type id: spaceId title score pages { id: pageId title } }
      }
    }
  }
`);

let t: TestApp;
let org: SeededOrganization;
let spaceId: string;
let api: GitBookAPI;

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "GraphQL Search");
  const server = await listen(t.app);
  afterAll(() => server.close());
  api = new GitBookAPI({ endpoint: server.url, authToken: org.members.admin.token });
  const space = await api.orgs.createSpace(org.organizationId, { title: "Manual" });
  spaceId = space.data.id;
  const edit = await t.rest("POST", `/spaces/${spaceId}/content`, {
    token: org.members.admin.token,
    body: {
      changes: [
        { type: "insert", page: { title: "Webhooks", markdown: "## Retries\n\nFailed webhooks are retried." } },
        { type: "insert", page: { title: "Events", markdown: "Each event can trigger webhooks." } },
        { type: "insert", page: { title: "Billing", markdown: "Invoices are monthly." } },
      ],
    },
  });
  expect(edit.status).toBe(200);
});

describe("search over GraphQL", () => {
  it("searchSpaceContent is a Relay connection, best hit first, paged by cursor", async () => {
    const client = t.graphql(org.members.read.token);
    const first = await client.request(SearchSpace, { spaceId, query: "webhooks", first: 1 });
    const connection = first.space?.searchSpaceContent;
    expect(connection?.totalCount).toBe(2);
    expect(connection?.nodes.map((hit) => hit.title)).toEqual(["Webhooks"]);
    expect(connection?.nodes[0]?.sections).toEqual([{ id: "retries", path: "webhooks#retries" }]);
    expect(connection?.pageInfo.hasNextPage).toBe(true);
    const second = await client.request(SearchSpace, {
      spaceId,
      query: "webhooks",
      first: 1,
      after: connection?.pageInfo.endCursor,
    });
    expect(second.space?.searchSpaceContent?.nodes.map((hit) => hit.title)).toEqual(["Events"]);
    expect(second.space?.searchSpaceContent?.pageInfo.hasNextPage).toBe(false);
  });

  it("searchOrganizationContent groups pages per space", async () => {
    const result = await t.graphql(org.members.admin.token).request(SearchOrganization, {
      organizationId: org.organizationId,
      query: "invoices",
    });
    expect(result.organization?.searchOrganizationContent).toEqual({
      totalCount: 1,
      nodes: [{ type: "space", id: spaceId, title: "Manual", score: expect.any(Number), pages: [expect.any(Object)] }],
    });
  });

  it("refuses an empty query and backward paging with a clear error", async () => {
    const errorsOf = async (selection: string) => {
      const response = await t.app.fetch(
        new Request("http://gateway.test/graphql", {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${org.members.admin.token}` },
          body: JSON.stringify({
            query: `query($id: ID!) { space(id: $id) { ${selection} } }`,
            variables: { id: spaceId },
          }),
        }),
      );
      const body = (await response.json()) as { errors: { message: string; extensions: { code: string } }[] };
      return body.errors.map((error) => [error.message, error.extensions.code]);
    };
    expect(await errorsOf(`searchSpaceContent(query: " ") { totalCount }`)).toEqual([
      ["query must not be empty", "BAD_USER_INPUT"],
    ]);
    expect(await errorsOf(`searchSpaceContent(query: "x", last: 1) { totalCount }`)).toEqual([
      ["search results page forward only", "BAD_USER_INPUT"],
    ]);
  });
});

describe("search through the official client", () => {
  it("searchSpaceContent and searchOrganizationContent answer the public shapes", async () => {
    const space = await api.spaces.searchSpaceContent(spaceId, { query: "webhooks retried" });
    expectMatchesSpec("searchSpaceContent", 200, space.data);
    expect(space.data.items.map((hit) => hit.title)).toEqual(["Webhooks"]);
    const organization = await api.orgs.searchOrganizationContent(org.organizationId, { query: "webhooks", limit: 5 });
    expectMatchesSpec("searchOrganizationContent", 200, organization.data);
    expect(organization.data.items.map((item) => [item.title, item.pages.map((page) => page.title)])).toEqual([
      ["Manual", ["Webhooks", "Events"]],
    ]);
  });
});
