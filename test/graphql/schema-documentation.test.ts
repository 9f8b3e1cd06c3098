import {
  buildSchema,
  type GraphQLNamedType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isSpecifiedScalarType,
} from "graphql";
import { expect, it } from "vitest";
import { schema } from "../../src/schema.ts";

/** Every element of the schema a reader of GraphiQL's docs or of generated clients sees, without a description. */
function undocumented(types: readonly GraphQLNamedType[]): string[] {
  const missing: string[] = [];
  for (const type of types) {
    if (type.name.startsWith("__") || isSpecifiedScalarType(type)) continue;
    if (!type.description?.trim()) missing.push(`type ${type.name}`);
    if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) {
        if (!field.description?.trim()) missing.push(`field ${type.name}.${field.name}`);
        for (const arg of "args" in field ? field.args : []) {
          if (!arg.description?.trim()) missing.push(`argument ${type.name}.${field.name}(${arg.name})`);
        }
      }
    }
    if (isEnumType(type)) {
      for (const value of type.getValues()) {
        if (!value.description?.trim()) missing.push(`enum value ${type.name}.${value.name}`);
      }
    }
  }
  return missing;
}

it("documents every type, field, argument and enum value", () => {
  expect(undocumented(Object.values(schema.getTypeMap()))).toEqual([]);
});

it("finds an undocumented element wherever it hides", () => {
  const sample = buildSchema(`
    """Documented."""
    type Query {
      """Documented."""
      sites(first: Int): [String!]!
      title: String
    }
    input Filter { title: String }
    enum Order { ASC }
  `);
  expect(undocumented(Object.values(sample.getTypeMap()))).toEqual([
    "argument Query.sites(first)",
    "field Query.title",
    "type Filter",
    "field Filter.title",
    "type Order",
    "enum value Order.ASC",
  ]);
});
