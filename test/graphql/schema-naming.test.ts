import {
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLOutputType,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
} from "graphql";
import { expect, it } from "vitest";
import { schema } from "../../src/app/schema.ts";
import { enumValueName } from "../../src/graphql/enums.ts";

const types = Object.values(schema.getTypeMap()).filter((type) => !type.name.startsWith("__"));
const idName = /(^id$|Ids?$|^ids$)/;

const typeName = (type: GraphQLInputType | GraphQLOutputType) => getNamedType(type).name;

function stringIds(named: readonly GraphQLNamedType[]): string[] {
  const found: string[] = [];
  for (const type of named) {
    if (!isObjectType(type) && !isInterfaceType(type) && !isInputObjectType(type)) continue;
    for (const field of Object.values(type.getFields())) {
      if (idName.test(field.name) && typeName(field.type) === "String") found.push(`${type.name}.${field.name}`);
      for (const arg of "args" in field ? field.args : []) {
        const coordinate = `${type.name}.${field.name}(${arg.name})`;
        if (idName.test(arg.name) && typeName(arg.type) === "String") found.push(coordinate);
      }
    }
  }
  return found;
}

// Names and descriptions (UPPER_CASE enum values, camelCase fields, every element described) are checked on the
// committed schema.graphql by graphql-eslint in `npm run lint` (eslint.config.mjs).

it("gives every enum value its public value as internal value", () => {
  const badNames: string[] = [];
  for (const type of types) {
    if (!isEnumType(type)) continue;
    for (const value of type.getValues()) {
      // The REST adapter maps names to internal values and back: each must be a string naming its value.
      if (typeof value.value !== "string" || enumValueName(value.value) !== value.name) {
        badNames.push(`${type.name}.${value.name} = ${String(value.value)}`);
      }
    }
  }
  expect(badNames).toEqual([]);
});

it("types every id as ID, never String", () => {
  expect(stringIds(types)).toEqual([]);
});

it("lists the enum's names, not the public values, where an input field or argument is an enum", () => {
  const quoted: string[] = [];
  const check = (coordinate: string, input: { type: GraphQLInputType; description?: string | null }) => {
    if (isEnumType(getNamedType(input.type)) && /One of "/.test(input.description ?? "")) quoted.push(coordinate);
  };
  for (const type of types) {
    if (isInputObjectType(type)) for (const field of Object.values(type.getFields())) check(type.name, field);
    if (isObjectType(type)) {
      for (const field of Object.values(type.getFields())) {
        for (const arg of field.args) check(`${type.name}.${field.name}(${arg.name})`, arg);
      }
    }
  }
  expect(quoted).toEqual([]);
});
