import { type GraphQLFieldResolver, type GraphQLResolveInfo, type GraphQLSchema, isObjectType } from "graphql";

/**
 * Options of a field whose resolver only reads its row's property of the same name, typed more narrowly than the
 * row types it (an enum over a string column): `readOwnProperties` drops the resolver, so the executors read the
 * property in place. graphql-jit inlines such a read; a resolver costs a call and a resolve-info object per row, a
 * thousand of each on a page of change requests. Fields that can `t.expose` their column need no marking.
 */
export const readsOwnProperty = { extensions: { readsOwnProperty: true } };

/** Drops the resolvers of marked fields, once each has answered a probe row's property of its name as it is. */
export function readOwnProperties(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type)) continue;
    for (const field of Object.values(type.getFields())) {
      if (field.extensions.readsOwnProperty !== true || !field.resolve) continue;
      const probe = Symbol(field.name);
      if (answerTo(field.resolve, field.name, probe) !== probe) {
        throw new Error(`${type.name}.${field.name} is marked readsOwnProperty but answers something else`);
      }
      field.resolve = undefined;
    }
  }
  return schema;
}

/** What a resolver answers for a row holding only `probe` under `name` (undefined when it throws). */
function answerTo(resolve: GraphQLFieldResolver<unknown, unknown>, name: string, probe: symbol): unknown {
  try {
    return resolve({ [name]: probe }, {}, undefined, { fieldName: name } as GraphQLResolveInfo);
  } catch {
    return undefined;
  }
}
