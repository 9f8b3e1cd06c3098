import {
  type GraphQLArgument,
  type GraphQLInputField,
  type GraphQLSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
} from "graphql";

const valuesClause = /One of ((?:"[^"]*"(?:, )?)+)/;

/**
 * Input fields and arguments are described from the zod schemas the services check (`describeInputField`), whose
 * "One of ..." lists the public values ("admin"); a GraphQL caller sends the enum's names (`ADMIN`) where the type
 * is an enum, so there the clause names those. Applied once to the built schema, like the partial-success rule.
 */
export function nameEnumValuesInDescriptions(schema: GraphQLSchema): GraphQLSchema {
  const rename = (input: GraphQLInputField | GraphQLArgument) => {
    const type = getNamedType(input.type);
    if (!isEnumType(type) || !input.description) return;
    const names = new Map(type.getValues().map((value) => [JSON.stringify(value.value), value.name]));
    input.description = input.description.replace(valuesClause, (_clause, list: string) => {
      const quoted = list.match(/"[^"]*"/g) ?? [];
      return `One of ${quoted.map((value) => names.get(value) ?? value).join(", ")}`;
    });
  };
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith("__")) continue;
    if (isInputObjectType(type)) for (const field of Object.values(type.getFields())) rename(field);
    if (isObjectType(type) || isInterfaceType(type)) {
      for (const field of Object.values(type.getFields())) for (const arg of field.args) rename(arg);
    }
  }
  return schema;
}
