import { ClientError } from "graphql-request";
import { beforeAll, describe, expect, it } from "vitest";
import { insertOrganization } from "../../src/modules/organization/organization.service.ts";
import { createSite, createSpace, sitePath } from "../factories.ts";
import { type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { graphqlAnswer } from "../helpers/graphql-answer.ts";

type Node = Record<string, unknown> & { id: string };
interface Connection {
  totalCount: number;
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  nodes: Node[];
}

/** One ordered list of the schema, and what its nodes expose of the sort and filter fields. */
interface ListCase {
  name: string;
  /** Its GraphQL input prefix (`Site` for `SiteOrder`, `SiteFilter`). */
  type: string;
  /** The query's variables besides paging, `orderBy` and `filter` (`$org: ID!`), and their values. */
  declared: string;
  variables: () => Record<string, unknown>;
  /** The connection selected under its parents, given its arguments and node selection. */
  select: (args: string, nodes: string) => string;
  /** From the answer's data to the connection. */
  pick: (data: Record<string, unknown>) => Connection;
  /** Sort field -> the node field holding its value, for the fields the type exposes. */
  fields: Record<string, string | null>;
  /** Filters, each with the test the listed nodes must pass (on the node fields selected). */
  filters: { filter: Record<string, unknown>; test: (node: Node) => boolean }[];
}

let t: TestApp;
let org: SeededOrganization;
const ids: Record<string, string> = {};
/** Times between the seeded rows of a kind (after the third site, team, ...), for the range filters. */
const marks: Record<string, string> = {};
const mark = (name: string) => () => marks[name] as string;

const titles = ["delta", "alpha", "charlie", "alpha", "bravo", "echo"];

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "golf organization");
  const admin = org.members.admin;
  const token = admin.token;
  const step = () => t.clock.advance(60_000);
  for (const [index, title] of titles.entries()) {
    await insertOrganization(t.db.prisma, { title: `${title} org` }, new Date(Date.UTC(2025, 0, index + 1)), admin.id);
  }
  const spaces: string[] = [];
  for (const title of titles) {
    step();
    spaces.push((await createSpace(t, org, { title })).id);
  }
  ids.space = spaces[0] as string;
  let firstSite = "";
  for (const [index, title] of titles.entries()) {
    step();
    const site = await createSite(t, org, { title: `${title} site` });
    firstSite ||= site.id;
    if (index === 2) marks.site = t.clock.now().toISOString();
  }
  ids.site = firstSite;
  for (const [index, title] of titles.entries()) {
    step();
    const section = await t.rest("POST", `${sitePath(org, firstSite)}/sections`, {
      token,
      body: { spaceId: spaces[index], title: `${title} section` },
    });
    expect(section.status).toBe(201);
  }
  for (const title of titles) {
    step();
    expect((await t.rest("PUT", `/orgs/${org.organizationId}/teams`, { token, body: { title } })).status).toBe(201);
    const cr = await t.rest("POST", `/spaces/${ids.space}/change-requests`, { token, body: { subject: title } });
    expect(cr.status).toBe(201);
    const comment = await t.rest("POST", `/spaces/${ids.space}/comments`, {
      token,
      body: { body: { markdown: title } },
    });
    expect(comment.status).toBe(200);
    if (title === titles[2]) marks.team = t.clock.now().toISOString();
  }
  for (const [index, title] of titles.slice(0, 4).entries()) {
    step();
    const spec = await t.rest("POST", `/orgs/${org.organizationId}/openapi`, {
      token,
      body: { slug: `${title}-${index}`, source: { text: JSON.stringify({ openapi: "3.0.0" }) } },
    });
    expect(spec.status).toBe(201);
  }
  for (const language of ["de", "fr", "es", "it"]) {
    step();
    if (language === "es") marks.translation = t.clock.now().toISOString();
    const translation = await t.rest("POST", `/orgs/${org.organizationId}/translations`, {
      token,
      body: { source: { space: spaces[1], language: "en" }, language },
    });
    expect(translation.status).toBe(201);
  }
});

const contains = (field: string, text: string) => (node: Node) => String(node[field]).toLowerCase().includes(text);
const after = (field: string, time: () => string) => (node: Node) => String(node[field]) > time();
const before = (field: string, time: () => string) => (node: Node) => String(node[field]) < time();
const both = (a: (node: Node) => boolean, b: (node: Node) => boolean) => (node: Node) => a(node) && b(node);

const cases: ListCase[] = [
  {
    name: "organizations",
    type: "Organization",
    declared: "",
    variables: () => ({}),
    select: (args, nodes) => `organizations(${args}) { ${nodes} }`,
    pick: (data) => data.organizations as Connection,
    fields: { CREATED_AT: "createdAt", UPDATED_AT: null, TITLE: "title" },
    filters: [
      { filter: { titleContains: "ALPHA" }, test: contains("title", "alpha") },
      {
        filter: { createdBefore: "2025-01-03T12:00:00.000Z" },
        test: (node) => String(node.createdAt) < "2025-01-03T12",
      },
    ],
  },
  {
    name: "spaces",
    type: "Space",
    declared: "$org: ID!",
    variables: () => ({ org: org.organizationId }),
    select: (args, nodes) => `organization(id: $org) { spaces(${args}) { ${nodes} } }`,
    pick: (data) => (data.organization as { spaces: Connection }).spaces,
    fields: { CREATED_AT: "createdAt", UPDATED_AT: "updatedAt", TITLE: "title", POSITION: null },
    filters: [
      { filter: { titleContains: "li" }, test: contains("title", "li") },
      {
        filter: { visibility: "PRIVATE", updatedAfter: "2000-01-01T00:00:00Z" },
        test: (node) => node.visibility === "PRIVATE",
      },
    ],
  },
  {
    name: "sites",
    type: "Site",
    declared: "$org: ID!",
    variables: () => ({ org: org.organizationId }),
    select: (args, nodes) => `organization(id: $org) { sites(${args}) { ${nodes} } }`,
    pick: (data) => (data.organization as { sites: Connection }).sites,
    fields: { CREATED_AT: "createdAt", UPDATED_AT: null, TITLE: "title" },
    filters: [
      { filter: { titleContains: "A S" }, test: contains("title", "a s") },
      { filter: { createdAfter: "mark:site", published: false }, test: after("createdAt", mark("site")) },
    ],
  },
  {
    name: "site sections",
    type: "SiteSection",
    declared: "$org: ID!, $site: ID!",
    variables: () => ({ org: org.organizationId, site: ids.site }),
    select: (args, nodes) => `siteSections(organizationId: $org, siteId: $site, ${args}) { ${nodes} }`,
    pick: (data) => data.siteSections as Connection,
    fields: { POSITION: null, TITLE: "title", CREATED_AT: null },
    filters: [{ filter: { titleContains: "ALPHA" }, test: contains("title", "alpha") }],
  },
  {
    name: "site spaces",
    type: "SiteSpace",
    declared: "$org: ID!, $site: ID!",
    variables: () => ({ org: org.organizationId, site: ids.site }),
    select: (args, nodes) => `siteSpaces(organizationId: $org, siteId: $site, ${args}) { ${nodes} }`,
    pick: (data) => data.siteSpaces as Connection,
    fields: { POSITION: null, PATH: "path", CREATED_AT: null },
    filters: [{ filter: { pathContains: "a" }, test: contains("path", "a") }],
  },
  {
    name: "members",
    type: "Member",
    declared: "$org: ID!",
    variables: () => ({ org: org.organizationId }),
    select: (args, nodes) => `organization(id: $org) { members(${args}) { ${nodes} } }`,
    pick: (data) => (data.organization as { members: Connection }).members,
    fields: { JOINED_AT: "joinedAt" },
    filters: [
      { filter: { role: "GUEST" }, test: (node) => node.role === null },
      { filter: { role: "ADMIN", joinedAfter: "2000-01-01T00:00:00Z" }, test: (node) => node.role === "ADMIN" },
    ],
  },
  {
    name: "teams",
    type: "Team",
    declared: "$org: ID!",
    variables: () => ({ org: org.organizationId }),
    select: (args, nodes) => `organization(id: $org) { teams(${args}) { ${nodes} } }`,
    pick: (data) => (data.organization as { teams: Connection }).teams,
    fields: { CREATED_AT: "createdAt", TITLE: "title" },
    filters: [
      {
        filter: { titleContains: "a", createdAfter: "mark:team" },
        test: both(contains("title", "a"), after("createdAt", mark("team"))),
      },
    ],
  },
  {
    name: "change requests",
    type: "ChangeRequest",
    declared: "$space: ID!",
    variables: () => ({ space: ids.space }),
    select: (args, nodes) => `space(id: $space) { changeRequests(${args}) { ${nodes} } }`,
    pick: (data) => (data.space as { changeRequests: Connection }).changeRequests,
    fields: { CREATED_AT: "createdAt", UPDATED_AT: "updatedAt", NUMBER: "number" },
    filters: [
      { filter: { subjectContains: "ALP" }, test: contains("subject", "alp") },
      { filter: { createdAfter: "mark:team" }, test: after("createdAt", mark("team")) },
    ],
  },
  {
    name: "comments",
    type: "Comment",
    declared: "$space: ID!",
    variables: () => ({ space: ids.space }),
    select: (args, nodes) => `space(id: $space) { commentThreads(${args}) { ${nodes} } }`,
    pick: (data) => (data.space as { commentThreads: Connection }).commentThreads,
    fields: { POSTED_AT: "postedAt" },
    filters: [{ filter: { postedBefore: "mark:team" }, test: before("postedAt", mark("team")) }],
  },
  {
    name: "OpenAPI specs",
    type: "OpenAPISpec",
    declared: "$org: ID!",
    variables: () => ({ org: org.organizationId }),
    select: (args, nodes) => `organization(id: $org) { openAPISpecs(${args}) { ${nodes} } }`,
    pick: (data) => (data.organization as { openAPISpecs: Connection }).openAPISpecs,
    fields: { CREATED_AT: "createdAt", UPDATED_AT: "updatedAt", SLUG: "slug" },
    filters: [{ filter: { slugContains: "HA" }, test: contains("slug", "ha") }],
  },
  {
    name: "translations",
    type: "Translation",
    declared: "$org: ID!",
    variables: () => ({ org: org.organizationId }),
    select: (args, nodes) => `organization(id: $org) { translations(${args}) { ${nodes} } }`,
    pick: (data) => (data.organization as { translations: Connection }).translations,
    fields: { CREATED_AT: "createdAt", UPDATED_AT: "updatedAt" },
    filters: [
      { filter: { language: "FR" }, test: (node) => node.language === "FR" },
      {
        filter: { status: "PENDING", createdBefore: "mark:translation" },
        test: both((node) => node.status === "PENDING", before("createdAt", mark("translation"))),
      },
    ],
  },
];

/** The node fields each type exposes of its sorts and filters. */
const exposed: Record<string, string[]> = {
  Organization: ["title", "createdAt"],
  Space: ["title", "createdAt", "updatedAt", "visibility"],
  Site: ["title", "createdAt"],
  SiteSection: ["title"],
  SiteSpace: ["path"],
  Member: ["joinedAt", "role"],
  Team: ["title", "createdAt"],
  ChangeRequest: ["subject", "createdAt", "updatedAt", "number"],
  Comment: ["postedAt"],
  OpenAPISpec: ["slug", "createdAt", "updatedAt"],
  Translation: ["createdAt", "updatedAt", "language", "status"],
};

function nodeSelection(list: ListCase): string {
  return `totalCount pageInfo { hasNextPage endCursor } nodes { id ${(exposed[list.type] ?? []).join(" ")} }`;
}

function documentOf(list: ListCase): string {
  const declared = [
    list.declared,
    `$first: Int, $after: String, $orderBy: [${list.type}Order!], $filter: ${list.type}Filter`,
  ]
    .filter(Boolean)
    .join(", ");
  const args = `first: $first, after: $after, orderBy: $orderBy, filter: $filter`;
  return `query List${list.type}(${declared}) { ${list.select(args, nodeSelection(list))} }`;
}

/** `mark:<name>` in a filter stands for that mark's time. */
const withTimes = (filter: Record<string, unknown> | undefined) =>
  filter &&
  Object.fromEntries(
    Object.entries(filter).map(([key, value]) => [
      key,
      typeof value === "string" && value.startsWith("mark:") ? marks[value.slice(5)] : value,
    ]),
  );

async function page(list: ListCase, variables: Record<string, unknown>): Promise<Connection> {
  const data = await t.graphql(org.members.admin.token).request<Record<string, unknown>>(documentOf(list), {
    ...list.variables(),
    ...variables,
    filter: withTimes(variables.filter as Record<string, unknown> | undefined),
  });
  return list.pick(data);
}

/** Every page of `size` items in turn, the cursors of each page feeding the next. */
async function walk(list: ListCase, variables: Record<string, unknown>, size = 2): Promise<Node[]> {
  const nodes: Node[] = [];
  let cursor: string | null = null;
  do {
    const current = await page(list, { ...variables, first: size, after: cursor });
    nodes.push(...current.nodes);
    cursor = current.pageInfo.hasNextPage ? current.pageInfo.endCursor : null;
  } while (cursor);
  return nodes;
}

async function errorOf(list: ListCase, variables: Record<string, unknown>) {
  try {
    await page(list, variables);
  } catch (error) {
    if (error instanceof ClientError) return error.response.errors?.[0];
    throw error;
  }
  throw new Error("expected an error");
}

const idsOf = (nodes: Node[]) => nodes.map((node) => node.id);

describe.each(cases)("$name: orderBy and filter", (list) => {
  it.each(Object.keys(list.fields))("orders by %s both ways, paging without gaps or repeats", async (field) => {
    const asc = await walk(list, { orderBy: [{ field, direction: "ASC" }] });
    const desc = await walk(list, { orderBy: [{ field, direction: "DESC" }] });
    const whole = await page(list, { first: 100, orderBy: [{ field, direction: "ASC" }] });
    expect(whole.nodes.length).toBeGreaterThanOrEqual(4);
    expect(whole.totalCount).toBe(whole.nodes.length);
    expect(idsOf(asc)).toEqual(idsOf(whole.nodes));
    expect(new Set(idsOf(asc)).size).toBe(asc.length);
    // The id breaks ties in the last key's direction, so descending is exactly ascending reversed.
    expect(idsOf(desc)).toEqual(idsOf(asc).reverse());
    const column = list.fields[field];
    if (column) {
      const values = asc.map((node) => node[column] as string | number);
      expect(values).toEqual([...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    }
  });

  it("filters, alone and with an order, across pages", async () => {
    const [firstField] = Object.keys(list.fields) as [string];
    const everything = await page(list, { first: 100 });
    for (const { filter, test } of list.filters) {
      const expected = everything.nodes.filter(test);
      const filtered = await page(list, { first: 100, filter });
      expect(idsOf(filtered.nodes).sort()).toEqual(idsOf(expected).sort());
      expect(filtered.totalCount).toBe(expected.length);
      const orderBy = [{ field: firstField, direction: "DESC" }];
      const walked = await walk(list, { orderBy, filter }, 1);
      expect(idsOf(walked)).toEqual(idsOf((await page(list, { first: 100, orderBy, filter })).nodes));
      expect(walked).toHaveLength(expected.length);
    }
    expect(list.filters.some(({ test }) => everything.nodes.some((node) => !test(node)))).toBe(true);
  });

  it("refuses bad orders, bad filters and a cursor of another order", async () => {
    const [field, other] = Object.keys(list.fields) as [string, string | undefined];
    const twice = await errorOf(list, {
      first: 2,
      orderBy: [
        { field, direction: "ASC" },
        { field, direction: "DESC" },
      ],
    });
    expect(twice?.extensions?.code).toBe("BAD_USER_INPUT");
    expect(twice?.message).toMatch(/each field at most once/);
    const unknown = await errorOf(list, { first: 2, orderBy: [{ field: "NOPE", direction: "ASC" }] });
    expect(unknown?.message).toMatch(/NOPE/);
    const badFilter = await errorOf(list, { first: 2, filter: { nope: 1 } });
    expect(badFilter?.message).toMatch(/nope/);
    const first = await page(list, { first: 1, orderBy: [{ field, direction: "ASC" }] });
    const foreign = await errorOf(list, {
      first: 1,
      after: first.pageInfo.endCursor,
      orderBy: [{ field: other ?? field, direction: other ? "ASC" : "DESC" }],
    });
    expect(foreign?.extensions?.code).toBe("BAD_USER_INPUT");
    expect(foreign?.message).toBe("Invalid page cursor: it belongs to another order; ask for the first page again");
  });
});

describe("validation of orderBy and filter values", () => {
  const spaces = cases.find((list) => list.type === "Space") as ListCase;
  const sites = cases.find((list) => list.type === "Site") as ListCase;

  it("refuses more than 3 keys, empty search text, an unknown enum value and a bad time", async () => {
    const four = await errorOf(spaces, {
      first: 2,
      orderBy: ["CREATED_AT", "UPDATED_AT", "TITLE", "POSITION"].map((field) => ({ field, direction: "ASC" })),
    });
    expect(four?.extensions?.code).toBe("BAD_USER_INPUT");
    expect(four?.message).toMatch(/orderBy/);
    const empty = await errorOf(spaces, { first: 2, filter: { titleContains: "  " } });
    expect(empty?.extensions?.code).toBe("BAD_USER_INPUT");
    expect(empty?.message).toMatch(/filter\.titleContains/);
    // Enum filters are checked by GraphQL itself, before any resolver runs.
    const badType = await errorOf(sites, { first: 2, filter: { type: "gold" } });
    expect(badType?.message).toMatch(/"gold".*SiteType/);
    const badTime = await errorOf(spaces, { first: 2, filter: { createdAfter: "yesterday" } });
    expect(badTime?.extensions?.code).toBe("BAD_USER_INPUT");
    expect(badTime?.message).toMatch(/"yesterday".*DateTime/);
  });

  it("sorts by several keys, the id breaking the remaining ties", async () => {
    const orderBy = [
      { field: "TITLE", direction: "ASC" },
      { field: "CREATED_AT", direction: "DESC" },
    ];
    const nodes = await walk(spaces, { orderBy });
    const alphas = nodes.filter((node) => node.title === "alpha");
    expect(alphas).toHaveLength(2);
    expect(String(alphas[0]?.createdAt) > String(alphas[1]?.createdAt)).toBe(true);
    expect(idsOf(nodes)).toEqual(idsOf((await page(spaces, { first: 100, orderBy })).nodes));
  });

  it("refuses the arguments 0.3.0 removed, naming each, and answers their replacements", async () => {
    const token = org.members.admin.token;
    const removed = [
      ["members(first: 1, sort: JOINED_AT)", "Organization.members", "sort"],
      ["members(first: 1, order: ASC)", "Organization.members", "order"],
      ['sites(first: 1, type: "basic")', "Organization.sites", "type"],
      ["changeRequests(first: 1, orderByTime: CREATED_AT)", "Organization.changeRequests", "orderByTime"],
      ["changeRequests(first: 1, orderByKeys: [])", "Organization.changeRequests", "orderByKeys"],
    ] as const;
    for (const [field, coordinate, argument] of removed) {
      const answer = await graphqlAnswer(
        t,
        token,
        `query($org: ID!) { organization(id: $org) { ${field} { totalCount } } }`,
        {
          org: org.organizationId,
        },
      );
      expect(answer.data).toBeUndefined();
      // Armor hides graphql-js's "Did you mean" (here `orderBy` or `filter`) behind "[Suggestion hidden]".
      expect(answer.errors?.map((error) => error.message.replace(" [Suggestion hidden]", ""))).toEqual([
        `Unknown argument "${argument}" on field "${coordinate}".`,
      ]);
    }
    const client = t.graphql(token);
    const current = await client.request<{
      organization: { members: { nodes: { joinedAt: string }[] }; sites: { nodes: { type: string }[] } };
      space: { changeRequests: { nodes: { number: number }[] } };
    }>(
      `query($org: ID!, $space: ID!) {
        organization(id: $org) {
          members(first: 100, orderBy: [{ field: JOINED_AT, direction: ASC }]) { nodes { joinedAt } }
          sites(first: 100, filter: { type: BASIC }) { nodes { type } }
        }
        space(id: $space) { changeRequests(first: 100, orderBy: [{ field: CREATED_AT, direction: DESC }]) { nodes { number } } }
      }`,
      { org: org.organizationId, space: ids.space },
    );
    const joined = current.organization.members.nodes.map((node) => node.joinedAt);
    expect(joined.length).toBeGreaterThan(1);
    expect(joined).toEqual([...joined].sort());
    expect(current.organization.sites.nodes.length).toBeGreaterThan(0);
    expect(current.organization.sites.nodes.every((node) => node.type === "BASIC")).toBe(true);
    expect(current.space.changeRequests.nodes.map((node) => node.number)).toEqual([6, 5, 4, 3, 2, 1]);
  });
});
