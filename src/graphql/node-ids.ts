import { brandWithType, getTypeBrand } from "@pothos/core";
import { type GraphQLFieldResolver, type GraphQLSchema, isInterfaceType, isObjectType } from "graphql";
import { globalIdOf, nodeTypeNames, typeOfId } from "../platform/ids.ts";

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

/**
 * `loadMany` for a node type whose rows carry no prefixed `id` of their own (the pair-id types: `Member`,
 * `RevisionPage`, `RevisionFile`), so `resolveNodeTypesById` cannot tell their type: each row is branded with its
 * type as soon as it loads, before any field can share the load. The relay plugin brands rows only once the whole
 * batch has loaded, which a second `node` of the same id may outrun; its own branding is turned off (a brand cannot
 * be set twice on an object). Spread into `builder.node`'s options.
 */
export function loadBranded<Row, Context>(
  type: Parameters<typeof brandWithType>[1],
  load: (ids: readonly string[], ctx: Context) => Promise<readonly (Row | null)[]>,
) {
  return {
    brandLoadedObjects: false,
    loadMany: async (ids: string[], ctx: Context): Promise<readonly (Row | null)[]> => {
      const rows = await load(ids, ctx);
      // A row may be shared by an earlier load (a tree a loader keeps): its brand is already this type.
      for (const row of rows) if (row && !getTypeBrand(row)) brandWithType(row, type);
      return rows;
    },
  };
}
