import { GraphQLObjectType, GraphQLSchema, GraphQLString, graphqlSync } from "graphql";
import { describe, expect, it } from "vitest";
import { schema } from "../../src/app/schema.ts";
import { readOwnProperties, readsOwnProperty } from "../../src/graphql/own-property.ts";

const schemaWith = (resolve: (row: { status: string }) => unknown) =>
  new GraphQLSchema({
    query: new GraphQLObjectType({
      name: "Query",
      fields: {
        row: {
          type: new GraphQLObjectType({
            name: "Row",
            fields: { status: { type: GraphQLString, ...readsOwnProperty, resolve } },
          }),
          resolve: () => ({ status: "open" }),
        },
      },
    }),
  });

describe("fields marked readsOwnProperty", () => {
  it("lose their resolver and still answer the row's property", () => {
    const marked = readOwnProperties(schemaWith((row) => row.status));
    const rowType = marked.getType("Row") as GraphQLObjectType;
    expect(rowType.getFields().status?.resolve).toBeUndefined();
    expect(graphqlSync({ schema: marked, source: "{ row { status } }" }).data).toEqual({ row: { status: "open" } });
  });

  it("refuse to build when the resolver answers anything but that property", () => {
    expect(() => readOwnProperties(schemaWith((row) => row.status.toUpperCase()))).toThrow(
      "Row.status is marked readsOwnProperty but answers something else",
    );
  });

  it("include the columns of the long lists: a change request's status, a space's edit mode", () => {
    for (const [type, field] of [
      ["ChangeRequest", "status"],
      ["Space", "editMode"],
      ["Space", "mergeRules"],
    ] as const) {
      expect((schema.getType(type) as GraphQLObjectType).getFields()[field]?.resolve).toBeUndefined();
    }
  });
});
