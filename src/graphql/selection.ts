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
 * Answers per field position and question: a nested list asks once per parent (the nested read's 200 sections each
 * walked the same selection). The executor hands every call at one position of an operation the same `fieldNodes`
 * (graphql-jit fixes them when it compiles the operation, which its cache keeps across requests); the answer depends
 * on those nodes and the fragments of their document alone.
 */
const answers = new WeakMap<readonly FieldNode[], Map<ReadonlySet<string>, Map<string, boolean>>>();

/** The answer to `question` about `fields` (a set the asking module keeps as a constant) at this field position. */
function answered(info: GraphQLResolveInfo, fields: ReadonlySet<string>, question: string, answer: () => boolean) {
  let atPosition = answers.get(info.fieldNodes);
  if (!atPosition) {
    atPosition = new Map();
    answers.set(info.fieldNodes, atPosition);
  }
  let aboutFields = atPosition.get(fields);
  if (!aboutFields) {
    aboutFields = new Map();
    atPosition.set(fields, aboutFields);
  }
  const known = aboutFields.get(question);
  if (known !== undefined) return known;
  const value = answer();
  aboutFields.set(question, value);
  return value;
}

/**
 * Whether the items of the list or connection a resolver answers select any of `fields` (fragments included):
 * a list settles what those fields read for all its items at once only when they are asked for.
 */
export function itemsSelectAny(info: GraphQLResolveInfo, fields: ReadonlySet<string>): boolean {
  return answered(info, fields, "any", () => info.fieldNodes.some((node) => selects(info, node.selectionSet, fields)));
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
  return answered(info, allowed, `within ${field}`, () =>
    info.fieldNodes.every((node) => selectsWithin(info, node.selectionSet, field, allowed)),
  );
}
