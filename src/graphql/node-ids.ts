import { type GraphQLFieldResolver, type GraphQLSchema, isInterfaceType, isObjectType } from "graphql";
import { globalIdOf, nodeTypeNames, typeOfId } from "../ids.ts";

type IdResolver = GraphQLFieldResolver<unknown, unknown>;

/**
 * A node type's `id` when its global id is its row's `id` column (`builder.node(Ref, { id: idColumn, ... })`): every
 * node type here, since global ids are the rows' ids as they are (`globalIdOf`).
 */
export const idColumn = { resolve: (row: { id: string }): string => row.id };

/** Whether the builder's global-id encoding leaves an id as it is, so that `idColumn` ids need no resolver. */
const globalIdIsTheId = globalIdOf("id") === "id";

/**
 * The relay plugin wraps every node's `id` in an async resolver (it awaits the id, then encodes it): a promise and
 * a microtask per object, thousands in a nested read. An `idColumn` id has no resolver at all: the executors read
 * the row's `id` as a plain property (graphql-jit inlines it, where a resolver costs a call and a resolve-info
 * object per object). Any other declared id resolves synchronously, through its resolver and the same encoding
 * (`globalIdOf`, the builder's `encodeGlobalID`). `declaredIds`: each node type's declared `id` resolver, by type name.
 */
export function resolveNodeIds(schema: GraphQLSchema, declaredIds: ReadonlyMap<string, IdResolver>): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type)) continue;
    const declared = declaredIds.get(type.name);
    const field = type.getFields().id;
    if (!declared || !field) continue;
    if (declared === idColumn.resolve && globalIdIsTheId) {
      field.resolve = undefined;
      continue;
    }
    field.resolve = (parent, args, context, info) => {
      const id = declared(parent, args, context, info);
      return id instanceof Promise ? id.then(globalIdOf) : globalIdOf(id);
    };
  }
  return schema;
}

/**
 * `Node`'s type resolver names a row's type from its id's prefix (ids carry it, `nodeTypeNames`). The relay plugin's
 * resolver reads a type brand it sets on each row once the whole `nodes` batch has loaded; a second `node` or
 * `nodes` of the same id in one request shares that load through the plugin's request cache and may complete first,
 * on a row not branded yet ("Runtime Object type is not a possible type for Node"). Any other value still goes to
 * the plugin's resolver.
 */
export function resolveNodeTypesById(schema: GraphQLSchema): GraphQLSchema {
  const node = schema.getType("Node");
  if (!isInterfaceType(node)) return schema;
  const byBrand = node.resolveType;
  node.resolveType = (value, context, info, abstractType) => {
    const id = typeof value === "object" && value !== null ? (value as { id?: unknown }).id : undefined;
    const type = typeof id === "string" ? typeOfId(id) : undefined;
    const name = type && nodeTypeNames.get(type);
    if (name) return name;
    return byBrand?.(value, context, info, abstractType);
  };
  return schema;
}
