import { beforeAll, describe, expect, it } from "vitest";
import { graphql } from "../generated/gql.ts";
import { type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { present } from "../helpers/present.ts";

const CreateSpace = graphql(`
  mutation SpacesTestCreate($input: CreateSpaceInput!) {
    createSpace(input: $input) { space { id title } }
  }
`);

const Invite = graphql(`
  mutation SpacesTestInvite($input: InviteToSpaceInput!) {
    inviteToSpace(input: $input) { space { id } }
  }
`);

const OrganizationSpaces = graphql(`
  query SpacesTestOrganizationSpaces($id: ID!) {
    organization(id: $id) {
      spaces(first: 100) {
        totalCount
        nodes { id title defaultLevel commentCount viewerCanView viewerCanEdit viewerCanAdminister }
      }
      members(first: 100) {
        nodes { id: userId spaceCount spaces(first: 100, orderBy: [{ field: CREATED_AT, direction: ASC }]) { totalCount nodes { permission space { id } } } }
      }
      teams(first: 100) { nodes { id spaceCount } }
    }
  }
`);

const MemberSpaces = graphql(`
  query SpacesTestMemberSpaces($id: ID!, $member: ID!, $after: String, $orderBy: [MemberSpaceOrder!]) {
    organization(id: $id) {
      member(userId: $member) {
        spaces(first: 3, after: $after, orderBy: $orderBy) {
          pageInfo { hasNextPage endCursor }
          nodes { space { id } }
        }
      }
    }
  }
`);

const Collections = graphql(`
  mutation SpacesTestCreateCollection($input: CreateCollectionInput!) {
    createCollection(input: $input) {
      collection { id title parentId viewerCanCreateContent }
    }
  }
`);

const CollectionQuery = graphql(`
  query SpacesTestCollection($id: ID!, $organizationId: ID!) {
    collection(id: $id) { id title defaultLevel }
    node(id: $id) { ... on Collection { title } }
    organization(id: $organizationId) { collections(first: 10) { totalCount nodes { id } } }
  }
`);

let t: TestApp;
let org: SeededOrganization;

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "GraphQL Spaces");
});

async function addSpaces(count: number, teamId: string) {
  const admin = t.graphql(org.members.admin.token);
  for (let i = 0; i < count; i++) {
    const createSpace = present(
      (
        await admin.request(CreateSpace, {
          input: { organizationId: org.organizationId, title: `Space ${i}` },
        })
      ).createSpace?.space,
    );
    await admin.request(Invite, {
      input: { spaceId: createSpace.id, role: "REVIEW", users: [org.members.read.id], teams: [teamId] },
    });
  }
}

async function measure() {
  const before = t.db.statementCount();
  const data = await t.graphql(org.members.edit.token).request(OrganizationSpaces, { id: org.organizationId });
  return { statements: t.db.statementCount() - before, data };
}

describe("spaces over GraphQL", () => {
  it("reads spaces with permissions and counts in a constant number of statements", async () => {
    const team = await t.rest<{ id: string }>("PUT", `/orgs/${org.organizationId}/teams`, {
      token: org.members.admin.token,
      body: { title: "Everyone", members: [org.members.edit.id] },
    });
    await addSpaces(2, team.body.id);
    // A token's first request also reads the token (cached after): measured requests come after it.
    await measure();
    const small = await measure();
    expect(present(present(small.data.organization).spaces).totalCount).toBe(2);
    // The edit member gets review through the team grant.
    expect(present(present(small.data.organization).spaces).nodes[0]).toMatchObject({
      viewerCanView: true,
      viewerCanEdit: true,
      viewerCanAdminister: false,
    });
    await addSpaces(6, team.body.id);
    const large = await measure();
    expect(present(present(large.data.organization).spaces).totalCount).toBe(8);
    expect(large.statements).toBe(small.statements);
    const counts = Object.fromEntries(
      present(present(large.data.organization).members).nodes.map((m) => [m.id, m.spaceCount]),
    );
    expect(counts[org.members.read.id]).toBe(8);
    expect(counts[org.members.edit.id]).toBe(8);
    expect(counts[org.members.admin.id]).toBe(8);
    expect(counts[org.members.comment.id]).toBe(0);
    expect(present(present(large.data.organization).teams).nodes[0]?.spaceCount).toBe(8);
    const readSpaces = present(present(large.data.organization).members).nodes.find(
      (m) => m.id === org.members.read.id,
    )?.spaces;
    expect(readSpaces?.totalCount).toBe(8);
    expect(readSpaces?.nodes.map((node) => node.permission)).toEqual(Array(8).fill("REVIEW"));
  });

  it("counts a list only when totalCount is asked for", async () => {
    let statements: string[] | undefined;
    t.db.onStatement((sql) => statements?.push(sql));
    const read = async (fields: string) => {
      const gql = t.graphql(org.members.read.token);
      const query = `query($id: ID!) { organization(id: $id) { spaces(first: 1) { ${fields} } } }`;
      await gql.request(query, { id: org.organizationId });
      statements = [];
      const data = await gql.request<{ organization: { spaces: { totalCount?: number } } }>(query, {
        id: org.organizationId,
      });
      const sent = statements;
      statements = undefined;
      return { statements: sent, data: data.organization.spaces };
    };
    const counted = await read("totalCount nodes { id }");
    const listed = await read("nodes { id }");
    const isCount = (sql: string) => /SELECT COUNT\(/i.test(sql);
    expect(counted.data.totalCount).toBeGreaterThan(1);
    expect(counted.statements.filter(isCount)).toHaveLength(1);
    expect(listed.statements.filter(isCount)).toEqual([]);
    expect(listed.statements).toHaveLength(counted.statements.length - 1);
  });

  it("orders a member's spaces with orderBy, page by page, newest first without it", async () => {
    const client = t.graphql(org.members.admin.token);
    async function walk(variables: { orderBy?: { field: "CREATED_AT"; direction: "ASC" | "DESC" }[] }) {
      const ids: string[] = [];
      let after: string | null | undefined;
      do {
        const data = await client.request(MemberSpaces, {
          id: org.organizationId,
          member: org.members.read.id,
          after,
          ...variables,
        });
        const spaces = present(present(data.organization?.member).spaces);
        ids.push(...spaces.nodes.map((node) => node.space.id));
        after = spaces.pageInfo.hasNextPage ? spaces.pageInfo.endCursor : undefined;
      } while (after);
      return ids;
    }
    const ascending = await walk({ orderBy: [{ field: "CREATED_AT", direction: "ASC" }] });
    expect(ascending).toHaveLength(8);
    expect(new Set(ascending).size).toBe(8);
    expect(await walk({ orderBy: [{ field: "CREATED_AT", direction: "DESC" }] })).toEqual([...ascending].reverse());
    expect(await walk({})).toEqual([...ascending].reverse());
  });

  it("creates and reads collections", async () => {
    const client = t.graphql(org.members.create.token);
    const parent = present(
      (
        await client.request(Collections, {
          input: { organizationId: org.organizationId, title: "Parent" },
        })
      ).createCollection?.collection,
    );
    const child = present(
      (
        await client.request(Collections, {
          input: { organizationId: org.organizationId, title: "Child", parent: parent.id },
        })
      ).createCollection?.collection,
    );
    expect(child).toMatchObject({ title: "Child", parentId: parent.id, viewerCanCreateContent: true });
    const read = await t
      .graphql(org.members.read.token)
      .request(CollectionQuery, { id: child.id, organizationId: org.organizationId });
    expect(read.collection).toMatchObject({ id: child.id, defaultLevel: null });
    expect(read.node).toMatchObject({ title: "Child" });
    expect(present(present(read.organization).collections).totalCount).toBe(2);
    await expect(
      t.graphql(org.members.review.token).request(Collections, { input: { organizationId: org.organizationId } }),
    ).rejects.toThrow(/create role/);
  });
});
