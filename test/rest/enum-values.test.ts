import {
  type GraphQLInputType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  type TypeNode,
  typeFromAST,
} from "graphql";
import { beforeAll, describe, expect, it } from "vitest";
import { restRoutes } from "../../src/app/rest-routes.ts";
import { schema } from "../../src/app/schema.ts";
import { compileRoutes } from "../../src/rest/compiled-routes.ts";
import type { ShapePlan } from "../../src/rest/shape.ts";
import { createSpace } from "../factories.ts";
import { type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";

// GraphQL names enum values in UPPER_SNAKE_CASE; REST keeps the public values, mapped both ways by the adapter.
let t: TestApp;
let org: SeededOrganization;

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "Enum Values");
});

describe("enum values over REST and GraphQL", () => {
  it("takes and answers public values in REST, while GraphQL answers the UPPER_SNAKE_CASE name", async () => {
    const token = org.members.admin.token;
    const member = `/orgs/${org.organizationId}/members/${org.members.read.id}`;
    const updated = await t.rest<{ role: string }>("PATCH", member, { token, body: { role: "admin" } });
    expect(updated.status).toBe(200);
    expect((await t.rest<{ role: string }>("GET", member, { token })).body.role).toBe("admin");
    const admins = await t.rest<{ items: { id: string }[] }>("GET", `/orgs/${org.organizationId}/members`, {
      token,
      query: { role: "admin" },
    });
    expect(admins.body.items.map((item) => item.id)).toContain(org.members.read.id);

    const read = await t
      .graphql(token)
      .request<{ organization: { member: { role: string } } }>(
        `query($org: ID!, $user: ID!) { organization(id: $org) { member(userId: $user) { role } } }`,
        { org: org.organizationId, user: org.members.read.id },
      );
    expect(read.organization.member.role).toBe("ADMIN");
  });

  it("refuses the GraphQL name in REST as an unknown value, as before", async () => {
    const named = await t.rest("GET", `/orgs/${org.organizationId}/members`, {
      token: org.members.admin.token,
      query: { role: "ADMIN" },
    });
    expect(named).toMatchObject({
      status: 400,
      body: {
        error: {
          code: 400,
          message:
            'Invalid parameter role: Value "ADMIN" does not exist in "MemberRoleFilter" enum. ' +
            'Did you mean the enum value "admin" or "edit"?',
        },
      },
    });
  });

  it("answers a hyphenated value as is in REST and as its name in GraphQL", async () => {
    const token = org.members.admin.token;
    const space = await createSpace(t, org);
    await t.db.prisma.space.update({ where: { id: space.id }, data: { visibility: "share-link" } });
    expect((await t.rest<{ visibility: string }>("GET", `/spaces/${space.id}`, { token })).body.visibility).toBe(
      "share-link",
    );
    const read = await t
      .graphql(token)
      .request<{ space: { visibility: string } }>(`query($id: ID!) { space(id: $id) { visibility } }`, {
        id: space.id,
      });
    expect(read.space.visibility).toBe("SHARE_LINK");
  });
});

function reachesEnum(type: GraphQLInputType, seen = new Set<string>()): boolean {
  if (isNonNullType(type) || isListType(type)) return reachesEnum(type.ofType, seen);
  if (isEnumType(type)) return true;
  if (!isInputObjectType(type) || seen.has(type.name)) return false;
  seen.add(type.name);
  return Object.values(type.getFields()).some((field) => reachesEnum(field.type, seen));
}

/** Every plan in a route's plan tree with the enum leaves it maps. */
function enumLeaves(plan: ShapePlan | undefined, into: ShapePlan[] = []): ShapePlan[] {
  if (!plan) return into;
  if (plan.publicValues) into.push(plan);
  for (const child of plan.fields?.values() ?? []) enumLeaves(child, into);
  return into;
}

it("maps the enums of every REST route: each variable that reaches one, and each enum leaf of the body", () => {
  const routes = compileRoutes(schema, restRoutes).map((route) => ({ route: route.route, ...route.prepared() }));
  const unmapped = routes.flatMap((route) =>
    route.variables
      .filter((variable) => {
        // `variable.type` is the REST form, enums as public-value leaves: the document's own type tells.
        const declared = typeFromAST(schema, route.variableTypes.get(variable.name) as TypeNode) as GraphQLInputType;
        return reachesEnum(declared) !== (variable.toSchemaValue !== undefined);
      })
      .map((variable) => `${route.route.operation}: $${variable.name}`),
  );
  expect(unmapped).toEqual([]);
  // Each leaf maps every name of its enum to a string, the public value.
  for (const leaf of routes.flatMap((route) => enumLeaves(route.plan))) {
    expect([...(leaf.publicValues?.values() ?? [])].every((value) => typeof value === "string")).toBe(true);
  }
  expect(routes.flatMap((route) => enumLeaves(route.plan)).length).toBeGreaterThan(0);
});
