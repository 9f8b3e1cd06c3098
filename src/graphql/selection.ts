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

/** Whether every field a selection set selects (fragments included) is one of `allowed`. */
function selectsOnly(
  info: GraphQLResolveInfo,
  selectionSet: SelectionSetNode | undefined,
  allowed: ReadonlySet<string>,
): boolean {
  if (!selectionSet) return true;
  return selectionSet.selections.every((selection): boolean => {
    if (selection.kind === Kind.FIELD) return allowed.has(selection.name.value);
    const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : info.fragments[selection.name.value];
    return selectsOnly(info, fragment?.selectionSet, allowed);
  });
}

function selectsWithin(
  info: GraphQLResolveInfo,
  selectionSet: SelectionSetNode | undefined,
  field: string,
  allowed: ReadonlySet<string>,
): boolean {
  if (!selectionSet) return true;
  return selectionSet.selections.every((selection): boolean => {
    if (selection.kind === Kind.FIELD) {
      const name = selection.name.value;
      if (name === field) return selectsOnly(info, selection.selectionSet, allowed);
      return !itemPaths.has(name) || selectsWithin(info, selection.selectionSet, field, allowed);
    }
    const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : info.fragments[selection.name.value];
    return selectsWithin(info, fragment?.selectionSet, field, allowed);
  });
}

/**
 * Whether the items of the list or connection a resolver answers select, inside their `field`, only fields of
 * `allowed` (fragments included; true when they do not select `field`): the list may then read the lighter rows
 * those fields need.
 */
export function itemsSelectWithin(info: GraphQLResolveInfo, field: string, allowed: ReadonlySet<string>): boolean {
  return info.fieldNodes.every((node) => selectsWithin(info, node.selectionSet, field, allowed));
}
