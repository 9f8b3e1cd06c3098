import {
  type GraphQLNamedType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isNonNullType,
  isObjectType,
} from "graphql";
import { describe, expect, it } from "vitest";
import { schema } from "../../src/app/schema.ts";
import { mutationInputTypeName } from "../../src/graphql/mutation-input.ts";
import { baseUrl, type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";

const mutations = Object.values(schema.getMutationType()?.getFields() ?? {});

/** Every deprecated field, argument, input field and enum value of the built schema, by coordinate. */
function deprecated(types: readonly GraphQLNamedType[]): string[] {
  const found: string[] = [];
  for (const type of types) {
    if (isEnumType(type)) {
      for (const value of type.getValues()) if (value.deprecationReason) found.push(`${type.name}.${value.name}`);
      continue;
    }
    if (!isObjectType(type) && !isInterfaceType(type) && !isInputObjectType(type)) continue;
    for (const field of Object.values(type.getFields())) {
      if (field.deprecationReason) found.push(`${type.name}.${field.name}`);
      for (const arg of "args" in field ? field.args : []) {
        if (arg.deprecationReason) found.push(`${type.name}.${field.name}(${arg.name})`);
      }
    }
  }
  return found;
}

/**
 * The deprecations 0.3.0 still keeps: REST's query parameters and bodies run through them (`order=asc`, `sort`,
 * `orderBy`, `type`, `repoCacheID`, the move routes' bodies), and each needs its REST mapping first.
 */
const keptForRest = [
  "ChangeRequest.commentThreads(order)",
  "ExportToGitRepositoryInput.repoCacheID",
  "ImportGitRepositoryInput.repoCacheID",
  "Member.spaces(order)",
  "Mutation.moveSiteSection",
  "Mutation.moveSiteSectionGroup",
  "Mutation.moveSiteSpace",
  "Organization.changeRequests(orderByKeys)",
  "Organization.changeRequests(orderByTime)",
  "Organization.members(order)",
  "Organization.members(sort)",
  "Organization.sites(type)",
  "SortOrder.ASC",
  "SortOrder.DESC",
  "Space.changeRequests(orderByKeys)",
  "Space.changeRequests(orderByTime)",
  "Space.commentThreads(order)",
];

describe("Relay's mutation convention over the built schema", () => {
  it("gives every mutation exactly one argument, a non-null `input` of its own `<Mutation>Input` type", () => {
    expect(mutations.length).toBeGreaterThan(80);
    const offending = mutations
      .filter((field) => {
        const [only, ...others] = field.args;
        return (
          others.length > 0 ||
          only?.name !== "input" ||
          !isNonNullType(only.type) ||
          !isInputObjectType(only.type.ofType) ||
          only.type.ofType.name !== mutationInputTypeName(field.name)
        );
      })
      .map((field) => `${field.name}(${field.args.map((arg) => `${arg.name}: ${arg.type}`).join(", ")})`);
    expect(offending).toEqual([]);
  });

  it("gives no two mutations the same input type", () => {
    const inputTypes = mutations.map((field) => String(field.args[0]?.type));
    expect(new Set(inputTypes).size).toBe(mutations.length);
  });

  it("keeps deprecated only what REST still runs through: no alias, no permissions object", () => {
    const types = Object.values(schema.getTypeMap()).filter((type) => !type.name.startsWith("__"));
    expect(deprecated(types).sort()).toEqual(keptForRest);
  });
});

describe("a mutation's ids inside its input, over HTTP", () => {
  let t: TestApp;
  let org: SeededOrganization;

  const post = async (query: string, variables: Record<string, unknown>) => {
    const response = await t.app.fetch(
      new Request(`${baseUrl}/graphql`, {
        method: "POST",
        headers: { authorization: `Bearer ${org.members.admin.token}`, "content-type": "application/json" },
        body: JSON.stringify({ query, variables }),
      }),
    );
    return (await response.json()) as { data?: Record<string, unknown>; errors?: { message: string }[] };
  };

  it("acts on the ids the input names, with the declared input's fields beside them", async () => {
    t = await startTestApp();
    org = await seedOrganization(t.db);
    const created = await post(
      `mutation($input: CreateSpaceInput!) { createSpace(input: $input) { space { id title } } }`,
      { input: { organizationId: org.organizationId, title: "Flat input" } },
    );
    const space = (created.data?.createSpace as { space: { id: string; title: string } }).space;
    expect(space.title).toBe("Flat input");
    const updated = await post(
      `mutation($input: UpdateSpaceInput!) { updateSpace(input: $input) { space { id title } } }`,
      { input: { spaceId: space.id, title: "Renamed" } },
    );
    expect(updated.errors).toBeUndefined();
    expect(updated.data).toEqual({ updateSpace: { space: { id: space.id, title: "Renamed" } } });
  });

  it("refuses the old loose arguments", async () => {
    const answer = await post(`mutation($spaceId: ID!) { deleteSpace(spaceId: $spaceId) { deletedId } }`, {
      spaceId: "space_missing",
    });
    expect(answer.errors?.map((error) => error.message)).toEqual([
      'Unknown argument "spaceId" on field "Mutation.deleteSpace".',
      'Field "deleteSpace" argument "input" of type "DeleteSpaceInput!" is required, but it was not provided.',
    ]);
  });
});
