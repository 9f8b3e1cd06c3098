import { beforeAll, describe, expect, it } from "vitest";
import { graphql } from "../generated/gql.ts";
import { type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { present } from "../helpers/present.ts";

const CreateSpace = graphql(`
  mutation ChangeRequestsTestCreateSpace($organizationId: ID!) {
    createSpace(input: { organizationId: $organizationId, title: "GraphQL content" }) { space { id } }
  }
`);

const CreateChangeRequest = graphql(`
  mutation ChangeRequestsTestCreate($spaceId: ID!, $subject: String) {
    createChangeRequest(input: { spaceId: $spaceId, subject: $subject }) {
      changeRequest { id number status outdated }
    }
  }
`);

const WriteContent = graphql(`
  mutation ChangeRequestsTestWrite($spaceId: ID!, $changeRequestId: ID!, $changes: [ContentChangeInput!]!) {
    updateChangeRequestContent(input: { spaceId: $spaceId, changeRequestId: $changeRequestId, changes: $changes }) {
      contentEdit { revisionId result inserted { type id: contentId } }
    }
  }
`);

const Merge = graphql(`
  mutation ChangeRequestsTestMerge($spaceId: ID!, $changeRequestId: ID!) {
    mergeChangeRequest(input: { spaceId: $spaceId, changeRequestId: $changeRequestId }) { outcome { revisionId result } }
  }
`);

const SpaceWithChangeRequests = graphql(`
  query ChangeRequestsTestNested($spaceId: ID!) {
    space(id: $spaceId) {
      content { id pages { title pages { title path } } }
      changeRequests(first: 100) {
        totalCount
        nodes {
          number subject outdated viewerCanEdit viewerCanMerge
          createdBy { email }
          content { pageList { title parentId markdown(format: MARKDOWN) } files { name } }
        }
      }
    }
  }
`);

const NodeQuery = graphql(`
  query ChangeRequestsTestNode($id: ID!) {
    node(id: $id) { id ... on ChangeRequest { number subject spaceId } }
  }
`);

const ChangeRequestNumbers = graphql(`
  query ChangeRequestsTestNumbers($spaceId: ID!) {
    space(id: $spaceId) { changeRequests(first: 100) { nodes { number } } }
  }
`);
const ChangeRequestCreators = graphql(`
  query ChangeRequestsTestCreators($spaceId: ID!) {
    space(id: $spaceId) { changeRequests(first: 100) { edges { node { number ...Creator } } } }
  }
  fragment Creator on ChangeRequest { createdBy { email } }
`);

let t: TestApp;
let org: SeededOrganization;

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "GraphQL Change Org");
});

describe("change requests over GraphQL", () => {
  it("writes, merges, and reads spaces with their change requests and content in a fixed number of statements", async () => {
    const admin = t.graphql(org.members.admin.token);
    const editor = t.graphql(org.members.edit.token);
    const createSpace = present(
      (await admin.request(CreateSpace, { organizationId: org.organizationId })).createSpace?.space,
    );

    const crIds: string[] = [];
    const addChangeRequests = async (count: number, pagesEach: number) => {
      for (let i = 0; i < count; i++) {
        const createChangeRequest = present(
          (
            await editor.request(CreateChangeRequest, {
              spaceId: createSpace.id,
              subject: `CR ${crIds.length}`,
            })
          ).createChangeRequest?.changeRequest,
        );
        crIds.push(createChangeRequest.id);
        const parent = await editor.request(WriteContent, {
          spaceId: createSpace.id,
          changeRequestId: createChangeRequest.id,
          changes: [{ type: "INSERT", page: { title: `Root ${crIds.length}`, markdown: "root" } }],
        });
        await editor.request(WriteContent, {
          spaceId: createSpace.id,
          changeRequestId: createChangeRequest.id,
          changes: Array.from({ length: pagesEach }, (_, index) => ({
            type: "INSERT" as const,
            page: {
              title: `Child ${index}`,
              parent: present(parent.updateChangeRequestContent?.contentEdit).inserted[0]?.id,
            },
          })),
        });
      }
    };
    const statements = async () => {
      const before = t.db.statementCount();
      const data = await editor.request(SpaceWithChangeRequests, { spaceId: createSpace.id });
      return { data, count: t.db.statementCount() - before };
    };

    await addChangeRequests(1, 1);
    const small = await statements();
    await addChangeRequests(4, 10);
    const large = await statements();
    expect(present(present(large.data.space).changeRequests).totalCount).toBe(5);
    const last = present(present(large.data.space).changeRequests).nodes.find((node) => node.subject === "CR 4");
    expect(last?.content?.pageList).toHaveLength(11);
    expect(last?.content?.pageList[1]).toMatchObject({ title: "Child 0", markdown: "" });
    expect(last?.createdBy?.email).toBe(org.members.edit.email);
    expect(last).toMatchObject({ viewerCanEdit: true, viewerCanMerge: false });
    expect(large.count).toBe(small.count);

    const merged = await t.graphql(org.members.review.token).request(Merge, {
      spaceId: createSpace.id,
      changeRequestId: crIds[0] as string,
    });
    expect(present(merged.mergeChangeRequest?.outcome).result).toBe("merge");
    const after = await editor.request(SpaceWithChangeRequests, { spaceId: createSpace.id });
    expect(present(present(after.space).content).id).toBe(present(merged.mergeChangeRequest?.outcome).revisionId);
    expect(present(present(after.space).content).pages).toEqual([
      { title: "Root 1", pages: [{ title: "Child 0", path: "root-1/child-0" }] },
    ]);
    expect(present(present(after.space).changeRequests).nodes.every((node) => node.outdated)).toBe(true);

    const node = await editor.request(NodeQuery, { id: crIds[1] as string });
    expect(node.node).toMatchObject({ id: crIds[1], number: 2, spaceId: createSpace.id });
    const outsider = await seedOrganization(t.db, "Outsider");
    const hidden = await t.graphql(outsider.members.admin.token).request(NodeQuery, { id: crIds[1] as string });
    expect(hidden.node).toBeNull();

    await expect(
      editor.request(WriteContent, {
        spaceId: createSpace.id,
        changeRequestId: crIds[1] as string,
        changes: [{ type: "UPDATE", pageId: "page_missing", page: { title: "x" } }],
      }),
    ).rejects.toThrow(/changes\.0: page page_missing does not exist/);
  });
});

describe("a change request list", () => {
  it("reads its rows' creators only when a field selects them", async () => {
    const admin = t.graphql(org.members.admin.token);
    const created = await admin.request(CreateSpace, { organizationId: org.organizationId });
    const spaceId = present(created.createSpace?.space).id;
    for (const subject of ["one", "two"]) await admin.request(CreateChangeRequest, { spaceId, subject });
    const statements = async (read: () => Promise<unknown>) => {
      const before = t.db.statementCount();
      await read();
      return t.db.statementCount() - before;
    };
    const numbers = await statements(() => admin.request(ChangeRequestNumbers, { spaceId }));
    const creators = await statements(() => admin.request(ChangeRequestCreators, { spaceId }));
    expect(creators).toBeGreaterThan(numbers);
    const answer = await admin.request(ChangeRequestCreators, { spaceId });
    expect(present(present(answer.space).changeRequests).edges.map((edge) => edge.node.createdBy?.email)).toEqual([
      org.members.admin.email,
      org.members.admin.email,
    ]);
  });
});
