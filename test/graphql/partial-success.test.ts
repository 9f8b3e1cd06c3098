import { beforeAll, describe, expect, it } from "vitest";
import { type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { graphqlAnswer } from "../helpers/graphql-answer.ts";

let t: TestApp;
let org: SeededOrganization;

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "Partial Success Org");
});

/** The whole answer, errors and data together, as an organization admin. */
const post = (query: string, variables: Record<string, unknown> = {}) =>
  graphqlAnswer(t, org.members.admin.token, query, variables);

async function createdId(path: string, body: unknown): Promise<string> {
  const response = await t.rest<{ id: string }>("POST", path, { token: org.members.admin.token, body });
  expect([200, 201]).toContain(response.status);
  return response.body.id;
}

describe("one failure beside a success keeps the success (GitHub's partial-success rule)", () => {
  it("answers a failing aliased mutation's error beside the write the other one made", async () => {
    const answer = await post(
      `mutation($organizationId: ID!) {
        failed: updateSpace(input: { spaceId: "space_missing", title: "Nowhere" }) { space { id } }
        created: createSpace(input: { organizationId: $organizationId, title: "Kept write" }) { space { id title } }
      }`,
      { organizationId: org.organizationId },
    );
    expect(answer.errors).toHaveLength(1);
    expect(answer.errors?.[0]).toMatchObject({ path: ["failed"], extensions: { code: "NOT_FOUND" } });
    expect(answer.data?.failed).toBeNull();
    const created = (answer.data?.created as { space: { id: string; title: string } }).space;
    expect(created.title).toBe("Kept write");
    const stored = await t.rest<{ title: string }>("GET", `/spaces/${created.id}`, { token: org.members.admin.token });
    expect(stored.status).toBe(200);
    expect(stored.body.title).toBe("Kept write");
  });

  it("answers a missing id as null beside the ids that exist, at the root and nested", async () => {
    const spaceId = await createdId(`/orgs/${org.organizationId}/spaces`, { title: "Present" });
    const siteId = await createdId(`/orgs/${org.organizationId}/sites`, { title: "Present site" });
    const answer = await post(
      `query($spaceId: ID!, $organizationId: ID!, $siteId: ID!) {
        present: space(id: $spaceId) { id title }
        missing: space(id: "space_missing") { id }
        organization(id: $organizationId) {
          site(id: $siteId) { id }
          missingSite: site(id: "site_missing") { id }
        }
      }`,
      { spaceId, organizationId: org.organizationId, siteId },
    );
    expect(answer.data).toEqual({
      present: { id: spaceId, title: "Present" },
      missing: null,
      organization: { site: { id: siteId }, missingSite: null },
    });
    expect(answer.errors?.map((error) => [error.path, error.extensions?.code])).toEqual([
      [["missing"], "NOT_FOUND"],
      [["organization", "missingSite"], "NOT_FOUND"],
    ]);
  });
});

describe("node(id:) refetches every object type with a globally unique id", () => {
  it("answers each id with its own type", async () => {
    const organization = `/orgs/${org.organizationId}`;
    const spaceId = await createdId(`${organization}/spaces`, { title: "Nodes" });
    const siteId = await createdId(`${organization}/sites`, { title: "Nodes site" });
    const site = `${organization}/sites/${siteId}`;
    const commentId = await createdId(`/spaces/${spaceId}/comments`, { body: { markdown: "A thread" } });
    const sitedSpaceId = await createdId(`${organization}/spaces`, { title: "Sited" });
    const expected: Record<string, string> = {
      [await createdId(`${site}/sections`, { spaceId, title: "Section" })]: "SiteSection",
      [await createdId(`${site}/site-spaces`, { spaceId: sitedSpaceId })]: "SiteSpace",
      [await createdId(`${site}/section-groups`, { title: "Group" })]: "SiteSectionGroup",
      [await createdId(`${site}/share-links`, { name: "Link" })]: "ShareLink",
      [commentId]: "Comment",
      [await createdId(`/spaces/${spaceId}/comments/${commentId}/replies`, { body: { markdown: "A reply" } })]:
        "CommentReply",
      [await createdId(`${organization}/link-invites`, { role: "read" })]: "LinkInvite",
      [await createdId(`${organization}/saml`, { label: "IdP" })]: "SAMLProvider",
    };
    const revision = await post(`query($id: ID!) { space(id: $id) { content { id } } }`, { id: spaceId });
    const revisionId = (revision.data?.space as { content: { id: string } }).content.id;
    expected[revisionId] = "Revision";

    const ids = Object.keys(expected);
    const answer = await post(`query($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }`, { ids });
    expect(answer.errors).toBeUndefined();
    expect(answer.data?.nodes).toEqual(ids.map((id) => ({ __typename: expected[id], id })));
  });
});
