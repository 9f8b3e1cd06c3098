import { type FieldNode, type GraphQLResolveInfo, Kind, type SelectionSetNode } from "graphql";

/** Fields through which a list's items are selected: a connection's `nodes`, and `edges { node }`. */
const itemPaths = new Set(["nodes", "edges", "node"]);

/** The fields a selection set selects, those of its fragments included. */
function fieldsOf(info: GraphQLResolveInfo, selectionSet: SelectionSetNode | undefined): FieldNode[] {
  return (selectionSet?.selections ?? []).flatMap((selection) => {
    if (selection.kind === Kind.FIELD) return [selection];
    const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : info.fragments[selection.name.value];
    return fieldsOf(info, fragment?.selectionSet);
  });
}

function selects(info: GraphQLResolveInfo, selectionSet: SelectionSetNode | undefined, fields: ReadonlySet<string>) {
  return fieldsOf(info, selectionSet).some(
    (field): boolean =>
      fields.has(field.name.value) || (itemPaths.has(field.name.value) && selects(info, field.selectionSet, fields)),
  );
}

/**
 * Whether the items of the list or connection a resolver answers select any of `fields` (fragments included):
 * a list settles what those fields read for all its items at once only when they are asked for.
 */
export function itemsSelectAny(info: GraphQLResolveInfo, fields: ReadonlySet<string>): boolean {
  return info.fieldNodes.some((node) => selects(info, node.selectionSet, fields));
}

function selectsWithin(
  info: GraphQLResolveInfo,
  selectionSet: SelectionSetNode | undefined,
  field: string,
  allowed: ReadonlySet<string>,
): boolean {
  return fieldsOf(info, selectionSet).every((selected): boolean => {
    const name = selected.name.value;
    if (name === field) return fieldsOf(info, selected.selectionSet).every((inner) => allowed.has(inner.name.value));
    return !itemPaths.has(name) || selectsWithin(info, selected.selectionSet, field, allowed);
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
