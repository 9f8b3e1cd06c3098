import { ApolloClient, gql, HttpLink, InMemoryCache } from "@apollo/client";
import { Client, fetchExchange } from "@urql/core";
import { cacheExchange } from "@urql/exchange-graphcache";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { countingFetch, warningsOf } from "../helpers/cache-clients.ts";
import { openChangeRequest } from "../helpers/content.ts";

/*
 * Every object a front end's screens select is keyed by Apollo Client and urql's graphcache with no configuration
 * (no type policies, no `keys`), the screens selecting `id` on every object as both caches ask: nodes by their ids, value objects (urls, the viewer, the rate limit, a member's
 * role in a team, a site's features, a connection, its edges and page info) by the ids their owners give them
 * (src/graphql/value-ids.ts). A narrower refetch (a connection's count alone) merges into what a wider screen read.
 */

/** Organization, its sites, their sections and site spaces with their spaces, its spaces, members with their teams,
 * change requests; the viewer and the rate limit. */
const WideScreen = gql`
  query WideScreen($organizationId: ID!) {
    viewer { id user { id email displayName urls { id location } } }
    rateLimit { id cost limit remaining nodeCount maxCost }
    organization(id: $organizationId) {
      id
      title
      urls { id app location logo }
      trial { id status count }
      sites(first: 5) {
        id
        totalCount
        pageInfo { id hasNextPage endCursor }
        edges {
          id
          cursor
          node {
            id
            title
            urls { id app location published }
            adaptiveContent { id enabled }
            features { id name plan frozen }
            sections(first: 5) {
              id
              nodes {
                id
                title
                urls { id published }
                siteSpaces(first: 5) { id nodes { id title urls { id published } space { id title urls { id app location } } } }
              }
            }
          }
        }
      }
      spaces(first: 20) { id nodes { id title urls { id app location } } }
      members(first: 20) {
        id
        nodes {
          id
          role
          user { id email urls { id location } }
          teams(first: 5) { id nodes { id team { id title } member { id role } } }
        }
      }
      changeRequests(first: 5) {
        id
        nodes { id subject status urls { id app location } createdBy { id urls { id location } } space { id title } }
      }
    }
  }
`;

/** A subset of what `WideScreen` selects of the same objects, as a list row or a header refetches it. */
const NarrowScreen = gql`
  query NarrowScreen($organizationId: ID!) {
    viewer { id user { id urls { id location } } }
    rateLimit { id cost }
    organization(id: $organizationId) {
      id
      urls { id app }
      trial { id status }
      sites(first: 5) { id totalCount }
      members(first: 20) { id nodes { id teams(first: 5) { id nodes { id member { id role } } } } }
    }
  }
`;

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let org: SeededOrganization;

/** The seeded organization with a site (a section, its site space), a team of two members and a change request. */
beforeAll(async () => {
  t = await startTestApp();
  server = await listen(t.app);
  org = await seedOrganization(t.db, "Cache keys");
  const token = org.members.admin.token;
  const orgPath = `/orgs/${org.organizationId}`;
  const space = await t.rest<{ id: string }>("POST", `${orgPath}/spaces`, { token, body: { title: "Guide" } });
  const site = await t.rest<{ id: string }>("POST", `${orgPath}/sites`, { token, body: { title: "Docs" } });
  const section = await t.rest("POST", `${orgPath}/sites/${site.body.id}/sections`, {
    token,
    body: { spaceId: space.body.id },
  });
  expect(section.status).toBe(201);
  const team = await t.rest("PUT", `${orgPath}/teams`, {
    token,
    body: { title: "Writers", members: [org.members.edit.id, org.members.read.id] },
  });
  expect(team.status).toBe(201);
  await openChangeRequest(t, org, "Reviewed");
});

afterAll(() => server.close());

const headers = () => ({ authorization: `Bearer ${org.members.admin.token}` });

describe("every object a front end's screens select, keyed by caches with no configuration", () => {
  it("Apollo Client: no warning, the wide screen read and then answered from the cache after a narrower refetch", async () => {
    const counter = countingFetch();
    const cache = new InMemoryCache();
    const client = new ApolloClient({
      link: new HttpLink({ uri: `${server.url}/graphql`, headers: headers(), fetch: counter.fetch }),
      cache,
    });
    const variables = { organizationId: org.organizationId };
    const warnings = await warningsOf(async () => {
      const wide = await client.query<{ organization: object }>({ query: WideScreen, variables });
      expect(wide.error).toBeUndefined();
      expect(wide.data).toMatchObject({
        organization: {
          sites: { totalCount: 1 },
          members: { nodes: expect.arrayContaining([expect.objectContaining({ role: "EDIT" })]) },
          changeRequests: { nodes: [expect.objectContaining({ subject: "Watch me" })] },
        },
      });
      const narrow = await client.query({ query: NarrowScreen, variables, fetchPolicy: "network-only" });
      expect(narrow.error).toBeUndefined();

      const sent = counter.requests;
      const again = await client.query({ query: WideScreen, variables });
      expect(counter.requests).toBe(sent);
      expect(again.data).toMatchObject({ organization: wide.data?.organization });
    });
    console.log(warnings.join("\n---\n"));
    expect(warnings).toEqual([]);

    // Each value object is an entry of its own, under the id its owner gave it.
    const entries = Object.keys(cache.extract());
    expect(entries).toEqual(
      expect.arrayContaining([
        "Viewer:Query/viewer",
        "RateLimit:Query/rateLimit",
        `OrganizationURLs:${org.organizationId}/urls`,
        `OrganizationTrial:${org.organizationId}/trial`,
      ]),
    );
    expect(entries.filter((entry) => entry.startsWith("MemberTeam:mtm_"))).toHaveLength(2);
    expect(entries.filter((entry) => entry.startsWith("TeamMember:mtm_"))).toHaveLength(2);
  });

  it("urql's graphcache: no warning, and the wide screen a cache hit after a narrower refetch", async () => {
    const counter = countingFetch();
    const client = new Client({
      url: `${server.url}/graphql`,
      exchanges: [cacheExchange(), fetchExchange],
      fetchOptions: { headers: headers() },
      fetch: counter.fetch,
    });
    const variables = { organizationId: org.organizationId };
    const warnings = await warningsOf(async () => {
      const wide = await client.query(WideScreen, variables).toPromise();
      expect(wide.error).toBeUndefined();
      expect(wide.data).toMatchObject({ organization: { sites: { totalCount: 1 } } });
      const narrow = await client.query(NarrowScreen, variables, { requestPolicy: "network-only" }).toPromise();
      expect(narrow.error).toBeUndefined();

      const sent = counter.requests;
      const again = await client.query(WideScreen, variables).toPromise();
      expect(again.operation.context.meta?.cacheOutcome).toBe("hit");
      expect(counter.requests).toBe(sent);
      expect(again.data?.organization).toEqual(wide.data?.organization);
    });
    expect(warnings).toEqual([]);
  });

  it("a value object's id is its owner's and field's, stable from one request to the next; node(id:) does not answer it", async () => {
    const client = new ApolloClient({
      link: new HttpLink({ uri: `${server.url}/graphql`, headers: headers() }),
      cache: new InMemoryCache(),
    });
    const query = gql`
      query ValueIds($organizationId: ID!) {
        organization(id: $organizationId) { id urls { id } }
      }
    `;
    const variables = { organizationId: org.organizationId };
    const first = await client.query({ query, variables, fetchPolicy: "no-cache" });
    const second = await client.query({ query, variables, fetchPolicy: "no-cache" });
    expect(second.data).toEqual(first.data);
    expect(first.data).toMatchObject({ organization: { urls: { id: `${org.organizationId}/urls` } } });
    const node = await client.query({
      query: gql`query ValueAsNode($id: ID!) { node(id: $id) { id } }`,
      variables: { id: `${org.organizationId}/urls` },
      fetchPolicy: "no-cache",
    });
    expect(node.data).toEqual({ node: null });
  });
});
