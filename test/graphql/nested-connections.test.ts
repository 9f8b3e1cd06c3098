import { beforeAll, describe, expect, it } from "vitest";
import { type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { type GraphQLAnswer, graphqlAnswer } from "../helpers/graphql-answer.ts";

/*
 * Nested lists that grow page like any connection (Relay's usePaginationFragment on a section's site spaces), and
 * a removal's id names an edge of the connection it leaves (`@deleteEdge`).
 */

let t: TestApp;
let org: SeededOrganization;
let admin: string;

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "Nested Connections Org");
  admin = org.members.admin.token;
});

async function created(path: string, body: Record<string, unknown>): Promise<string> {
  const response = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}${path}`, { token: admin, body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.id;
}

/** A site with two sections, the first showing three spaces and the second one. */
async function siteWithSections() {
  const siteId = await created("/sites", { title: "Paged" });
  const spaces: string[] = [];
  for (let i = 0; i < 4; i++) spaces.push(await created("/spaces", { title: `Variant ${i}` }));
  const first = await created(`/sites/${siteId}/sections`, { spaceId: spaces[0], title: "First" });
  const second = await created(`/sites/${siteId}/sections`, { spaceId: spaces[3], title: "Second" });
  const siteSpaces = [
    (await sectionSiteSpaces(first, {})).data.nodes[0]?.id as string,
    await created(`/sites/${siteId}/site-spaces`, { spaceId: spaces[1], sectionId: first }),
    await created(`/sites/${siteId}/site-spaces`, { spaceId: spaces[2], sectionId: first }),
  ];
  return { siteId, first, second, siteSpaces };
}

interface SiteSpacesPage {
  totalCount: number;
  nodes: { id: string }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

async function sectionSiteSpaces(sectionId: string, args: Record<string, unknown>) {
  const answer = await graphqlAnswer(
    t,
    admin,
    `query($id: ID!, $first: Int, $after: String, $last: Int, $before: String) {
      node(id: $id) {
        ... on SiteSection {
          siteSpaces(first: $first, after: $after, last: $last, before: $before) {
            totalCount nodes { id } pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
          }
        }
      }
    }`,
    { id: sectionId, ...args },
  );
  return { answer, data: (answer.data?.node as { siteSpaces: SiteSpacesPage } | null)?.siteSpaces as SiteSpacesPage };
}

const ids = (page: SiteSpacesPage) => page.nodes.map((node) => node.id);
const codes = (answer: GraphQLAnswer) => answer.errors?.map((error) => error.extensions?.code);

describe("a section's site spaces, a connection", () => {
  it("pages forward and back with cursors, and refuses another section's cursor", async () => {
    const { siteId, first, second, siteSpaces } = await siteWithSections();
    const [a, b, c] = siteSpaces as [string, string, string];

    const page1 = (await sectionSiteSpaces(first, { first: 2 })).data;
    expect(ids(page1)).toEqual([a, b]);
    expect(page1.totalCount).toBe(3);
    expect(page1.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });

    const page2 = (await sectionSiteSpaces(first, { first: 2, after: page1.pageInfo.endCursor })).data;
    expect(ids(page2)).toEqual([c]);
    expect(page2.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });

    const lastOne = (await sectionSiteSpaces(first, { last: 1 })).data;
    expect(ids(lastOne)).toEqual([c]);
    expect(lastOne.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const back = (await sectionSiteSpaces(first, { last: 5, before: lastOne.pageInfo.startCursor })).data;
    expect(ids(back)).toEqual([a, b]);
    expect(back.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });

    // The same list as REST's section body holds whole.
    const rest = await t.rest<{ items: { id: string; siteSpaces: { id: string }[] }[] }>(
      "GET",
      `/orgs/${org.organizationId}/sites/${siteId}/sections`,
      { token: admin },
    );
    const listed = rest.body.items.find((section) => section.id === first);
    expect(listed?.siteSpaces.map((siteSpace) => siteSpace.id)).toEqual([a, b, c]);

    const foreign = await sectionSiteSpaces(second, { first: 2, after: page1.pageInfo.endCursor });
    expect(codes(foreign.answer)).toEqual(["BAD_USER_INPUT"]);
    expect(foreign.answer.errors?.[0]?.message).toMatch(/belongs to another list/);
  });
});

describe("a group's children, a connection", () => {
  it("lists the section removeSectionFromGroup answers as removedId, and no longer after", async () => {
    const { siteId, first, second } = await siteWithSections();
    const groupId = await created(`/sites/${siteId}/section-groups`, { title: "Group", sections: [first, second] });
    const children = async () => {
      const answer = await graphqlAnswer(
        t,
        admin,
        `query($id: ID!) {
          node(id: $id) {
            ... on SiteSectionGroup { children(first: 10) { totalCount edges { cursor node { ... on SiteSection { id } } } } }
          }
        }`,
        { id: groupId },
      );
      expect(answer.errors).toBeUndefined();
      const connection = (answer.data?.node as { children: { totalCount: number; edges: { node: { id: string } }[] } })
        .children;
      return { totalCount: connection.totalCount, ids: connection.edges.map((edge) => edge.node.id) };
    };
    expect(await children()).toEqual({ totalCount: 2, ids: [first, second] });

    const removed = await graphqlAnswer(
      t,
      admin,
      `mutation($groupId: ID!, $sectionId: ID!) {
        removeSectionFromGroup(input: { siteSectionGroupId: $groupId, siteSectionId: $sectionId }) { removedId }
      }`,
      { groupId, sectionId: first },
    );
    expect(removed).toMatchObject({ data: { removeSectionFromGroup: { removedId: first } } });
    expect(await children()).toEqual({ totalCount: 1, ids: [second] });
  });
});

describe("a change request's contributors, a connection", () => {
  it("pages the users who wrote into it", async () => {
    const spaceId = await created("/spaces", { title: "Contributed" });
    const answer = await graphqlAnswer(
      t,
      admin,
      `mutation($spaceId: ID!) {
        createChangeRequest(input: { spaceId: $spaceId, subject: "Edits" }) {
          changeRequest { contributors(first: 5) { totalCount nodes { id } pageInfo { hasNextPage } } }
        }
      }`,
      { spaceId },
    );
    expect(answer.errors).toBeUndefined();
    expect(answer.data).toEqual({
      createChangeRequest: {
        changeRequest: { contributors: { totalCount: 0, nodes: [], pageInfo: { hasNextPage: false } } },
      },
    });
  });
});
