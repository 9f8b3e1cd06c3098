import {
  execute,
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
} from "graphql";
import { expect, it } from "vitest";
import { enumValueName } from "../../src/graphql/enums.ts";
import { compileRoutes } from "../../src/rest/compiled-routes.ts";
import { createRestHandler } from "../../src/rest/router.ts";

// A schema of its own, with the hyphenated public values no REST input of the product carries yet.
const publicValues = ["public", "in-collection", "share-link"];
const Visibility = new GraphQLEnumType({
  name: "Visibility",
  values: Object.fromEntries(publicValues.map((value) => [enumValueName(value), { value }])),
});
const visibilityFields = { visibility: { type: Visibility }, anyOf: { type: new GraphQLList(Visibility) } };
const Filter = new GraphQLInputObjectType({
  name: "Filter",
  fields: {
    ...visibilityFields,
    nested: { type: new GraphQLInputObjectType({ name: "NestedFilter", fields: visibilityFields }) },
  },
});
const Echo = new GraphQLObjectType({
  name: "Echo",
  fields: {
    seen: { type: GraphQLString },
    visibility: { type: Visibility },
    all: { type: new GraphQLList(Visibility) },
  },
});
const schema = new GraphQLSchema({
  query: new GraphQLObjectType({
    name: "Query",
    fields: {
      echo: {
        type: Echo,
        args: { filter: { type: Filter }, visibility: { type: new GraphQLNonNull(Visibility) } },
        // Resolvers see public values: they answer what they received, as JSON, and the value itself.
        resolve: (_root, args: { filter?: unknown; visibility: string }) => ({
          seen: JSON.stringify(args),
          visibility: args.visibility,
          all: publicValues,
        }),
      },
    },
  }),
});

const document = `query echo($visibility: Visibility!, $input: Filter) {
  echo(visibility: $visibility, filter: $input) { seen visibility all }
}`;
const handler = createRestHandler(
  compileRoutes(schema, [{ method: "POST", path: "/echo", operation: "echo", status: 200, document, result: "echo" }]),
);
// The handler alone, on graphql-js: the app runs its documents through the GraphQL pipeline instead.
const executeDocument = async (
  documentNode: Parameters<typeof execute>[0]["document"],
  variableValues: Record<string, unknown>,
) => execute({ schema, document: documentNode, variableValues });

async function post(query: string, body: unknown) {
  const request = new Request(`http://test/v1/echo?${query}`, { method: "POST", body: JSON.stringify(body) });
  const response = await handler(request, "/echo", new URLSearchParams(query), executeDocument);
  return { status: response.status, body: await response.json() };
}

it("takes public values in query parameters and bodies, at any depth, and answers public values", async () => {
  const answer = await post("visibility=in-collection", {
    visibility: "share-link",
    anyOf: ["public", "in-collection"],
    nested: { visibility: "in-collection", anyOf: "share-link" },
  });
  expect(answer.status).toBe(200);
  expect(JSON.parse(answer.body.seen)).toEqual({
    visibility: "in-collection",
    filter: {
      visibility: "share-link",
      anyOf: ["public", "in-collection"],
      nested: { visibility: "in-collection", anyOf: ["share-link"] },
    },
  });
  expect(answer.body).toMatchObject({ visibility: "in-collection", all: publicValues });
});

it("refuses GraphQL names and unknown values as an unknown enum value", async () => {
  expect(await post("visibility=IN_COLLECTION", {})).toEqual({
    status: 400,
    body: {
      error: {
        code: 400,
        message: 'Invalid parameter visibility: Value "IN_COLLECTION" does not exist in "Visibility" enum.',
      },
    },
  });
  expect(await post("visibility=public", { nested: { anyOf: ["public", "SHARE_LINK"] } })).toEqual({
    status: 400,
    body: {
      error: {
        code: 400,
        message: 'Invalid request body field nested.anyOf[1]: Value "SHARE_LINK" does not exist in "Visibility" enum.',
      },
    },
  });
});
