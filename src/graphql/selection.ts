import { type GraphQLResolveInfo, Kind, type SelectionSetNode } from "graphql";

/** Fields through which a list's items are selected: a connection's `nodes`, and `edges { node }`. */
const itemPaths = new Set(["nodes", "edges", "node"]);

function selects(info: GraphQLResolveInfo, selectionSet: SelectionSetNode | undefined, fields: ReadonlySet<string>) {
  if (!selectionSet) return false;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      const name = selection.name.value;
      if (fields.has(name)) return true;
      if (itemPaths.has(name) && selects(info, selection.selectionSet, fields)) return true;
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      if (selects(info, selection.selectionSet, fields)) return true;
    } else if (selects(info, info.fragments[selection.name.value]?.selectionSet, fields)) {
      return true;
    }
  }
  return false;
}

/**
 * Whether the items of the list or connection a resolver answers select any of `fields` (fragments included):
 * a list settles what those fields read for all its items at once only when they are asked for.
 */
export function itemsSelectAny(info: GraphQLResolveInfo, fields: ReadonlySet<string>): boolean {
  return info.fieldNodes.some((node) => selects(info, node.selectionSet, fields));
}
