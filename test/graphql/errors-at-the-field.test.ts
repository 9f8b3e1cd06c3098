import { readFileSync } from "node:fs";
import {
  buildSchema,
  type GraphQLField,
  type GraphQLList,
  type GraphQLObjectType,
  getNamedType,
  isAbstractType,
  isLeafType,
  isObjectType,
} from "graphql";
import { beforeAll, describe, expect, it } from "vitest";
import { createSite, createSpace, sitePath } from "../factories.ts";
import { type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { type GraphQLAnswer, graphqlAnswer } from "../helpers/graphql-answer.ts";

/*
 * Errors stay at the field (docs/api-guarantees.md#errors): a field a caller may not read, or whose arguments are
 * wrong, answers null with its error at its own path; the readable parent and its siblings stay in `data`.
 */

const schema = buildSchema(readFileSync("schema.graphql", "utf8"));

let t: TestApp;
let org: SeededOrganization;
let siteCount: number;
let spaceId: string;

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "Errors at the field");
  spaceId = (await createSpace(t, org)).id;
  const granted = await t.rest("POST", `/spaces/${spaceId}/permissions`, {
    token: org.members.admin.token,
    body: { role: "read", users: [org.members.guest.id] },
  });
  expect(granted.status).toBeLessThan(300);
  const sites = [await createSite(t, org, { title: "One" }), await createSite(t, org, { title: "Two" })];
  siteCount = sites.length;
  for (const site of sites) {
    const link = await t.rest("POST", `${sitePath(org, site.id)}/share-links`, {
      token: org.members.admin.token,
      body: { name: "Preview" },
    });
    expect(link.status).toBe(201);
  }
});

/** The value at `path` in `data`; undefined where the path leaves it. */
function at(data: unknown, path: readonly (string | number)[]): unknown {
  let value = data;
  for (const key of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<string | number, unknown>)[key];
  }
  return value;
}

/** Every error answers null at its own path, under a parent that is still there. */
function expectErrorsAtTheirFields(answer: GraphQLAnswer) {
  expect(answer.errors?.length ?? 0).toBeGreaterThan(0);
  for (const error of answer.errors ?? []) {
    const path = error.path ?? [];
    expect(path.length, JSON.stringify(error)).toBeGreaterThan(0);
    expect(at(answer.data, path), JSON.stringify(error)).toBeNull();
    const parent = at(answer.data, path.slice(0, -1));
    expect(parent !== null && typeof parent === "object", `parent of ${JSON.stringify(error)}`).toBe(true);
  }
}

const OrganizationPage = `
  query OrganizationPage($id: ID!) {
    organization(id: $id) {
      title
      linkInvites(first: 10) { nodes { id } }
      samlProviders(first: 10) { nodes { id } }
      sites(first: 50) { nodes { title shareLinks(first: 10) { nodes { id } } } }
    }
  }
`;

describe("role-gated fields", () => {
  it("a read member's page keeps the organization and its sites beside admin-only lists", async () => {
    const answer = await graphqlAnswer(t, org.members.read.token, OrganizationPage, { id: org.organizationId });
    expectErrorsAtTheirFields(answer);
    expect(answer.errors?.map((error) => error.extensions?.code)).toEqual(Array(2 + siteCount).fill("FORBIDDEN"));
    const organization = answer.data?.organization as Record<string, unknown>;
    expect(organization).toMatchObject({ title: "Errors at the field", linkInvites: null, samlProviders: null });
    expect((organization.sites as { nodes: unknown[] }).nodes).toEqual(
      Array(siteCount).fill({ title: expect.any(String), shareLinks: null }),
    );
  });

  it("an admin reads them all", async () => {
    const answer = await graphqlAnswer(t, org.members.admin.token, OrganizationPage, { id: org.organizationId });
    expect(answer.errors).toBeUndefined();
  });

  /** Every field of the types a member's page shows, selected at once: the parent survives each failing one. */
  function everyField(type: GraphQLObjectType, depth: number): string {
    const fields = Object.values(type.getFields()).flatMap((field: GraphQLField<unknown, unknown>) => {
      if (field.deprecationReason) return [];
      const required = field.args.filter((arg) => String(arg.type).endsWith("!"));
      if (required.length > 0) return [];
      const named = getNamedType(field.type);
      if (isLeafType(named)) return [field.name];
      if (isAbstractType(named) || !isObjectType(named)) return [`${field.name} { __typename }`];
      const paged = field.args.some((arg) => arg.name === "first");
      const connection = named.name.endsWith("Connection");
      const nodes = connection && (named.getFields().nodes?.type as GraphQLList<GraphQLObjectType> | undefined);
      const inner = (of: GraphQLObjectType) => (depth > 0 ? everyField(of, depth - 1) : "__typename");
      const selection = nodes ? `nodes { ${inner(getNamedType(nodes) as GraphQLObjectType)} }` : inner(named);
      return [`${field.name}${paged ? "(first: 1)" : ""} { ${selection} }`];
    });
    return fields.join("\n");
  }

  for (const role of ["read", "guest"] as const) {
    for (const root of ["organization", "space"] as const) {
      it(`every field of a ${root} and what it lists, read by a ${role} member, fails alone`, async () => {
        const type = schema.getType(root === "space" ? "Space" : "Organization") as GraphQLObjectType;
        const query = `query Everything($id: ID!) { ${root}(id: $id) { ${everyField(type, 2)} } }`;
        const id = root === "space" ? spaceId : org.organizationId;
        const answer = await graphqlAnswer(t, org.members[role].token, query, { id });
        for (const error of answer.errors ?? []) {
          expect(at(answer.data, (error.path ?? []).slice(0, -1)), JSON.stringify(error)).not.toBeNull();
        }
        expect(answer.data?.[root]).not.toBeNull();
      });
    }
  }
});

describe("argument-checked fields", () => {
  const Lists = `
    query Lists($id: ID!, $after: String, $first: Int) {
      organization(id: $id) {
        title
        spaces(first: $first, after: $after) { totalCount }
        sites(first: 10) { totalCount }
      }
    }
  `;

  it("a bad cursor nulls only its list", async () => {
    const answer = await graphqlAnswer(t, org.members.read.token, Lists, { id: org.organizationId, after: "nonsense" });
    expectErrorsAtTheirFields(answer);
    expect(answer.errors?.[0]).toMatchObject({
      path: ["organization", "spaces"],
      extensions: { code: "BAD_USER_INPUT" },
    });
    expect(answer.data?.organization).toMatchObject({ spaces: null, sites: { totalCount: siteCount } });
  });

  it("first: 5000 nulls only its list", async () => {
    const answer = await graphqlAnswer(t, org.members.read.token, Lists, { id: org.organizationId, first: 5000 });
    expectErrorsAtTheirFields(answer);
    expect(answer.data?.organization).toMatchObject({ spaces: null, sites: { totalCount: siteCount } });
  });
});
