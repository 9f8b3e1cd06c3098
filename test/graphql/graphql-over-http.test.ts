import { beforeAll, describe, expect, it } from "vitest";
import { addMember } from "../../src/modules/user/user.service.ts";
import { baseUrl, type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";

/*
 * GraphQL over HTTP: the status a `application/graphql-response+json` client gets when there is no data, and what
 * error messages tell about the schema outside development.
 */

interface Answer {
  status: number;
  body: { data?: unknown; errors?: { message: string; extensions?: { code?: string } }[] };
}

let t: TestApp;
let development: TestApp;
let org: SeededOrganization;

beforeAll(async () => {
  t = await startTestApp();
  development = await startTestApp({ db: t.db, env: { NODE_ENV: "development" } });
  org = await seedOrganization(t.db, "Over HTTP");
});

async function send(
  body: unknown,
  { accept = "application/graphql-response+json", app = t }: { accept?: string; app?: TestApp } = {},
): Promise<Answer> {
  const response = await app.app.fetch(
    new Request(`${baseUrl}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", accept, authorization: `Bearer ${org.members.read.token}` },
      body: JSON.stringify(body),
    }),
  );
  return { status: response.status, body: (await response.json()) as Answer["body"] };
}

const NodeById = "query NodeById($id: ID!) { node(id: $id) { id } }";
const FirstOrganizations = "query FirstOrganizations($first: Int) { organizations(first: $first) { totalCount } }";

describe("a request refused before execution (no data)", () => {
  it("answers 400 under application/graphql-response+json when a variable's value cannot be coerced", async () => {
    for (const body of [
      { query: NodeById, variables: { id: { a: 1 } } },
      { query: NodeById, variables: {} },
      { query: FirstOrganizations, variables: { first: "ten" } },
    ]) {
      const answer = await send(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.data).toBeUndefined();
      expect(answer.body.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
      expect(answer.body.errors?.[0]?.extensions).not.toHaveProperty("http");
    }
  });

  it("keeps 200 under application/json, as the spec asks of that media type", async () => {
    const answer = await send({ query: NodeById, variables: { id: { a: 1 } } }, { accept: "application/json" });
    expect(answer.status).toBe(200);
    expect(answer.body.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
  });

  it("answers 200 when there is data, even beside an error", async () => {
    const answer = await send({ query: FirstOrganizations, variables: { first: 5000 } });
    expect(answer).toMatchObject({ status: 200, body: { data: { organizations: null } } });
  });
});

describe('"Did you mean" suggestions', () => {
  const another = "query Another { viewer { user { id } } }";
  const typos = {
    "an enum literal": { query: "{ organizations(orderBy: [{ field: CREATED_ATT, direction: ASC }]) { totalCount } }" },
    // With a second operation in the document, so that it runs on graphql-js, whose coercion messages suggest
    // (graphql-jit's do not).
    "an enum variable": {
      query: `query Ordered($o: [OrganizationOrder!]) { organizations(orderBy: $o) { totalCount } } ${another}`,
      operationName: "Ordered",
      variables: { o: [{ field: "CREATED_ATT", direction: "ASC" }] },
    },
    "an input field of a variable": {
      query: `query Filtered($f: OrganizationFilter) { organizations(filter: $f) { totalCount } } ${another}`,
      operationName: "Filtered",
      variables: { f: { titleContain: "x" } },
    },
    "a field": { query: "{ organizationz { totalCount } }" },
  };

  for (const [what, body] of Object.entries(typos)) {
    it(`are hidden outside development for ${what}, shown in development`, async () => {
      const hidden = await send(body);
      expect(hidden.body.errors?.length).toBeGreaterThan(0);
      for (const error of hidden.body.errors ?? []) expect(error.message).not.toMatch(/Did you mean/);
      const shown = await send(body, { app: development });
      expect(shown.body.errors?.map((error) => error.message).join(" ")).toMatch(/Did you mean/);
    });
  }
});

describe("a cursor from another parent's list", () => {
  const Invites = `
    query Invites($a: ID!, $b: ID!, $after: String) {
      a: organization(id: $a) { title linkInvites(first: 1, after: $after) { nodes { id } pageInfo { endCursor } } }
      b: organization(id: $b) { title linkInvites(first: 1, after: $after) { nodes { id } pageInfo { endCursor } } }
    }
  `;
  type InvitesPage = {
    title: string;
    linkInvites: { nodes: { id: string }[]; pageInfo: { endCursor: string } } | null;
  };

  it("is refused at its field; the same list pages on from it", async () => {
    const other = await seedOrganization(t.db, "Over HTTP too");
    const admin = org.members.admin;
    await addMember(t.db.prisma, other.organizationId, admin.id, "admin", new Date());
    for (const id of [org.organizationId, org.organizationId, other.organizationId, other.organizationId]) {
      const created = await t.rest("POST", `/orgs/${id}/link-invites`, { token: admin.token, body: { role: "read" } });
      expect(created.status).toBe(201);
    }
    const ask = async (after?: string) => {
      const response = await t.app.fetch(
        new Request(`${baseUrl}/graphql`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${admin.token}` },
          body: JSON.stringify({
            query: Invites,
            variables: { a: org.organizationId, b: other.organizationId, after },
          }),
        }),
      );
      return (await response.json()) as Answer["body"] & { data: { a: InvitesPage; b: InvitesPage } };
    };
    const first = await ask();
    expect(first.errors).toBeUndefined();
    // A's cursor pages on in A's list.
    const second = await ask(first.data.a.linkInvites?.pageInfo.endCursor);
    const fromA = second.data.a.linkInvites?.pageInfo.endCursor;
    expect(second.data.a.linkInvites?.nodes).toHaveLength(1);
    expect(second.data.a.linkInvites?.nodes[0]?.id).not.toBe(first.data.a.linkInvites?.nodes[0]?.id);

    const crossed = await ask(fromA);
    expect(crossed.data.a).toMatchObject({ linkInvites: { nodes: [] } });
    expect(crossed.data.b).toEqual({ title: "Over HTTP too", linkInvites: null });
    expect(crossed.errors).toEqual([
      expect.objectContaining({
        path: ["b", "linkInvites"],
        message: "Invalid page cursor: it belongs to another list; ask for the first page again",
        extensions: expect.objectContaining({ code: "BAD_USER_INPUT" }),
      }),
    ]);
  });
});
