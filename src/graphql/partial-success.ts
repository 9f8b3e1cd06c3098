import {
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLSchema,
  getNamedType,
  isListType,
  isNonNullType,
  isObjectType,
} from "graphql";

/**
 * GitHub's rule for partial success, applied once to the built schema so every new field follows it:
 * - every mutation result is nullable, so one failing aliased mutation leaves its siblings' results (and the writes
 *   they made) in `data` instead of nulling the whole answer;
 * - a field that looks one object up by a required argument (`space(id:)`, `organization.site(id:)`) is nullable,
 *   so one missing id nulls only its own field.
 * The error still arrives in `errors` with its code; REST maps that error, not the null, to its status.
 * Subscriptions keep their non-null events (a failing event ends the stream either way).
 */
export function applyPartialSuccessNullability(schema: GraphQLSchema): GraphQLSchema {
  const mutation = schema.getMutationType();
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith("__") || type === schema.getSubscriptionType()) continue;
    for (const field of Object.values(type.getFields())) {
      if (type === mutation || looksOneObjectUp(field)) loosen(field);
    }
  }
  return schema;
}

function looksOneObjectUp(field: GraphQLField<unknown, unknown>): boolean {
  const type = isNonNullType(field.type) ? field.type.ofType : field.type;
  const named = getNamedType(type);
  if (isListType(type) || !isObjectType(named) || named.name.endsWith("Connection")) return false;
  return field.args.some((arg: GraphQLArgument) => isNonNullType(arg.type));
}

/** In place: the schema's types are built once, at start-up, and nothing has read them yet. */
function loosen(field: GraphQLField<unknown, unknown>): void {
  if (isNonNullType(field.type)) field.type = field.type.ofType;
}
