import { type GraphQLFieldResolver, type GraphQLSchema, isObjectType } from "graphql";
import { globalIdOf } from "../ids.ts";

type IdResolver = GraphQLFieldResolver<unknown, unknown>;

/**
 * The relay plugin wraps every node's `id` in an async resolver (it awaits the id, then encodes it): a promise and
 * a microtask per object, thousands in a nested read, for ids that are plain columns here. Each node type's `id`
 * resolves synchronously instead, through the id resolver its `builder.node` declared and the same encoding
 * (`globalIdOf`, the builder's `encodeGlobalID`).
 */
export function resolveNodeIdsSynchronously(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type)) continue;
    const declared = (type.extensions.pothosOptions as { id?: { resolve?: IdResolver } } | undefined)?.id?.resolve;
    const field = type.getFields().id;
    if (!declared || !field) continue;
    field.resolve = (parent, args, context, info) => {
      const id = declared(parent, args, context, info);
      return id instanceof Promise ? id.then(globalIdOf) : globalIdOf(id);
    };
  }
  return schema;
}
