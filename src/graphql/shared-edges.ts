import {
  GraphQLList,
  type GraphQLNamedType,
  GraphQLNonNull,
  type GraphQLObjectType,
  type GraphQLOutputType,
  GraphQLSchema,
  getNamedType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
} from "graphql";

/** A Relay edge: an object named `...Edge` with exactly `cursor` and `node`. */
function isEdgeType(type: GraphQLNamedType): type is GraphQLObjectType {
  if (!isObjectType(type) || !type.name.endsWith("Edge")) return false;
  const names = Object.keys(type.getFields()).sort();
  return names.length === 2 && names[0] === "cursor" && names[1] === "node";
}

function replaced(type: GraphQLOutputType, by: ReadonlyMap<GraphQLObjectType, GraphQLObjectType>): GraphQLOutputType {
  if (isNonNullType(type)) return new GraphQLNonNull(replaced(type.ofType, by));
  if (isListType(type)) return new GraphQLList(replaced(type.ofType, by));
  return isObjectType(type) ? (by.get(type) ?? type) : type;
}

/**
 * One edge type per item type (`MemberEdge`), shared by every list of that type and by the payloads that answer a
 * new item's edge: Relay's `@appendEdge` and a normalized cache put a payload's edge into any list of its item type
 * only when the edge types match. The relay plugin names each edge after its connection field
 * (`OrganizationMembersConnectionEdge`); this keeps the first edge of each item type, renames it, and points every
 * field at it. The edges of one item type are alike (cursor and node, read from the same edge objects).
 */
export function shareEdgesByItemType(schema: GraphQLSchema): GraphQLSchema {
  const types = Object.values(schema.getTypeMap());
  const kept = new Map<string, GraphQLObjectType>();
  const replacement = new Map<GraphQLObjectType, GraphQLObjectType>();
  for (const edge of types.filter(isEdgeType)) {
    const nodeType = edge.getFields().node?.type;
    if (!nodeType) continue;
    const item = getNamedType(nodeType);
    const first = kept.get(item.name);
    if (first && String(first.getFields().node?.type) !== String(nodeType)) {
      throw new Error(`Edges ${first.name} and ${edge.name} of ${item.name} differ in their node's nullability`);
    }
    kept.set(item.name, first ?? edge);
    if (first) replacement.set(edge, first);
  }
  for (const [item, edge] of kept) {
    const name = `${item}Edge`;
    const taken = schema.getType(name);
    if (taken && taken !== edge && !replacement.has(taken as GraphQLObjectType)) {
      throw new Error(`Edge of ${item}: the name ${name} is taken`);
    }
    edge.name = name;
  }
  for (const type of types) {
    if (!isObjectType(type) && !isInterfaceType(type)) continue;
    for (const field of Object.values(type.getFields())) field.type = replaced(field.type, replacement);
  }
  // The schema indexes its types by name: built again without the merged edges, under the new names.
  const config = schema.toConfig();
  return new GraphQLSchema({
    ...config,
    types: config.types.filter((type) => !(isObjectType(type) && replacement.has(type))),
  });
}
