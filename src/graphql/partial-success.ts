import { type GraphQLField, type GraphQLSchema, isNonNullType, isObjectType } from "graphql";

/**
 * Errors stay at the field (GitHub's rule for partial success, widened for front ends), applied once to the built
 * schema so every new field follows it:
 * - every mutation result is nullable, so one failing aliased mutation leaves its siblings' results (and the writes
 *   they made) in `data` instead of nulling the whole answer;
 * - every field that takes arguments is nullable: a missing id (`space(id:)`, `organization.site(id:)`), a bad
 *   cursor, `first: 5000`, a bad filter or an unknown option nulls only that field, not the page that selected it.
 * A field refused to some readers of its parent (admin-only lists, secrets) is nullable too; those without
 * arguments declare it themselves (`organization.agentInstructions`, `site.visitorAuthKey`), and a test reads every
 * field as each role to hold them to it. The error still arrives in `errors`, at the field's path, with its code;
 * REST maps that error, not the null, to its status. Subscriptions keep their non-null events (a failing event ends
 * the stream either way).
 */
export function applyPartialSuccessNullability(schema: GraphQLSchema): GraphQLSchema {
  const mutation = schema.getMutationType();
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith("__") || type === schema.getSubscriptionType()) continue;
    for (const field of Object.values(type.getFields())) {
      if (type === mutation || field.args.length > 0) loosen(field);
    }
  }
  return schema;
}

/** In place: the schema's types are built once, at start-up, and nothing has read them yet. */
function loosen(field: GraphQLField<unknown, unknown>): void {
  if (isNonNullType(field.type)) field.type = field.type.ofType;
}
