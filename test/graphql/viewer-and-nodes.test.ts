import { ClientError } from "graphql-request";
import { beforeAll, describe, expect, it } from "vitest";
import { graphql } from "../generated/gql.ts";
import { type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { present } from "../helpers/present.ts";

let t: TestApp;
let org: SeededOrganization;
let other: SeededOrganization;

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "Graph Org");
  other = await seedOrganization(t.db, "Foreign Org");
});

const Viewer = graphql(`
  query Viewer {
    viewer { user { id email } apiTokens(first: 10) { totalCount nodes { id label revokedAt } } }
  }
`);

const CreateToken = graphql(`
  mutation CreateToken($label: String) {
    createAPIToken(input: { label: $label }) { token apiToken { id label } }
  }
`);

const RevokeToken = graphql(`
  mutation RevokeToken($id: ID!) { revokeAPIToken(input: { id: $id }) { apiToken { id revokedAt } } }
`);

const Nodes = graphql(`
  query Nodes($ids: [ID!]!) {
    nodes(ids: $ids) { __typename id ... on Organization { title } ... on Team { title } ... on User { email } }
  }
`);

const OrganizationTitle = graphql(`
  query OrganizationTitle($id: ID!) { organization(id: $id) { id title } }
`);

async function errorOf(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ClientError) return error.response.errors?.[0];
    throw error;
  }
  throw new Error("expected the request to fail");
}

describe("viewer and tokens", () => {
  it("creates a token shown once, lists it, and revoking it locks it out", async () => {
    const client = t.graphql(org.members.edit.token);
    const created = await client.request(CreateToken, { label: "laptop" });
    const token = present(present(created.createAPIToken).token);
    const apiTokenId = present(present(created.createAPIToken).apiToken).id;
    expect(token).toMatch(/^dmt_/);
    const stored = await t.db.prisma.apiToken.findUniqueOrThrow({
      where: { id: apiTokenId },
    });
    expect(stored.hash).not.toContain(token);

    const fresh = t.graphql(token);
    const viewer = await fresh.request(Viewer);
    expect(viewer.viewer.user.id).toBe(org.members.edit.id);
    expect(viewer.viewer.apiTokens?.nodes.map((token) => token.label)).toContain("laptop");

    await client.request(RevokeToken, { id: apiTokenId });
    const error = await errorOf(fresh.request(Viewer));
    expect(error?.extensions?.code).toBe("UNAUTHENTICATED");
    const rest = await t.rest("GET", "/orgs", { token });
    expect(rest.status).toBe(401);
  });

  it("does not let anyone revoke another user's token", async () => {
    const tokenId = (await t.db.prisma.apiToken.findFirstOrThrow({ where: { userId: org.members.read.id } })).id;
    const error = await errorOf(t.graphql(org.members.admin.token).request(RevokeToken, { id: tokenId }));
    expect(error?.extensions?.code).toBe("NOT_FOUND");
    expect((await t.db.prisma.apiToken.findUniqueOrThrow({ where: { id: tokenId } })).revokedAt).toBeNull();
  });
});

describe("node and nodes", () => {
  it("resolve REST ids of visible objects and null for other tenants' objects", async () => {
    const team = await t.db.prisma.team.create({
      data: { id: "team_graphvisible0000001", organizationId: org.organizationId, title: "Visible" },
    });
    const foreignTeam = await t.db.prisma.team.create({
      data: { id: "team_graphforeign0000001", organizationId: other.organizationId, title: "Foreign" },
    });
    const result = await t.graphql(org.members.read.token).request(Nodes, {
      ids: [
        org.organizationId,
        team.id,
        org.members.admin.id,
        other.organizationId,
        foreignTeam.id,
        other.members.admin.id,
        "nonsense",
        "tok_x",
      ],
    });
    expect(result.nodes?.map((node) => node?.__typename ?? null)).toEqual([
      "Organization",
      "Team",
      "User",
      null,
      null,
      null,
      null,
      null,
    ]);
    expect(result.nodes?.[0]).toMatchObject({ id: org.organizationId, title: "Graph Org" });
  });
});

/** A POST to /graphql as `token`, answered as JSON whatever its errors. */
async function post(token: string, query: string, variables: Record<string, unknown> = {}) {
  const response = await t.app.fetch(
    new Request("http://gateway.test/graphql", {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ query, variables }),
    }),
  );
  return (await response.json()) as { data?: Record<string, unknown>; errors?: { extensions?: { code?: string } }[] };
}

describe("the same node twice in one request", () => {
  it("resolves an id any number of times, through node, nodes and both together", async () => {
    const team = await t.db.prisma.team.create({
      data: { id: "team_graphtwice000000001", organizationId: org.organizationId, title: "Twice" },
    });
    const token = org.members.admin.token;
    const tokenId = (await t.db.prisma.apiToken.findFirstOrThrow({ where: { userId: org.members.admin.id } })).id;
    for (const id of [org.organizationId, team.id, org.members.read.id, tokenId]) {
      const twice = await post(token, "query($i: ID!) { a: node(id: $i) { id } b: node(id: $i) { id } }", { i: id });
      expect(twice.errors).toBeUndefined();
      expect(twice.data).toEqual({ a: { id }, b: { id } });
      const mixed = await post(
        token,
        "query($i: ID!) { a: node(id: $i) { __typename id } b: nodes(ids: [$i, $i]) { id } c: node(id: $i) { id } }",
        { i: id },
      );
      expect(mixed.errors).toBeUndefined();
      expect(mixed.data).toMatchObject({ a: { id }, b: [{ id }, { id }], c: { id } });
    }
  });

  it("gives every error a client sees an extensions.code", async () => {
    const coercion = await post(org.members.read.token, "query($i: ID!) { node(id: $i) { id } }", { i: { a: 1 } });
    expect(coercion.errors?.length).toBeGreaterThan(0);
    for (const error of coercion.errors ?? []) expect(error.extensions?.code).toBe("BAD_USER_INPUT");
    const validation = await post(org.members.read.token, "{ node { id } }");
    expect(validation.errors?.length).toBeGreaterThan(0);
    for (const error of validation.errors ?? []) expect(error.extensions?.code).toEqual(expect.any(String));
    // Requests yoga refuses before parsing: no query, a body that is no JSON.
    for (const body of ["{}", "{"]) {
      const response = await t.app.fetch(
        new Request("http://gateway.test/graphql", {
          method: "POST",
          headers: { authorization: `Bearer ${org.members.read.token}`, "content-type": "application/json" },
          body,
        }),
      );
      const answer = (await response.json()) as { errors?: { extensions?: { code?: string } }[] };
      expect(answer.errors?.length).toBeGreaterThan(0);
      for (const error of answer.errors ?? []) expect(error.extensions?.code).toEqual(expect.any(String));
    }
  });
});

describe("errors", () => {
  it("carry extensions.code for domain errors", async () => {
    const missing = await errorOf(
      t.graphql(org.members.read.token).request(OrganizationTitle, { id: other.organizationId }),
    );
    expect(missing?.extensions?.code).toBe("NOT_FOUND");
    const anonymous = await errorOf(t.graphql().request(OrganizationTitle, { id: org.organizationId }));
    expect(anonymous?.extensions?.code).toBe("UNAUTHENTICATED");
  });

  it("mask unexpected errors and never leak SQL", async () => {
    // The organization loader's statement fails as a broken database would; every other statement runs.
    const original = t.db.sql.rows;
    t.db.sql.rows = ((text: string, params?: readonly unknown[]) =>
      text.includes('FROM "Organization"')
        ? Promise.reject(new Error('relation "Organization" does not exist'))
        : original.call(t.db.sql, text, params)) as typeof original;
    try {
      const error = await errorOf(
        t.graphql(org.members.read.token).request(OrganizationTitle, { id: org.organizationId }),
      );
      expect(error?.message).toBe("Unexpected error.");
      expect(JSON.stringify(error)).not.toContain("relation");
      expect(error?.extensions?.code).toBe("INTERNAL_SERVER_ERROR");
      const rest = await t.rest("GET", `/orgs/${org.organizationId}`, { token: org.members.read.token });
      expect(rest.status).toBe(500);
      expect(rest.body).toEqual({ error: { code: 500, message: "Unexpected error." } });
    } finally {
      t.db.sql.rows = original;
    }
  });
});
