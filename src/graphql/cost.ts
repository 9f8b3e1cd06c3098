import {
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  getArgumentValues,
  getNamedType,
  getOperationAST,
  isInterfaceType,
  isObjectType,
  Kind,
  type SelectionSetNode,
} from "graphql";

/**
 * What a field costs, declared on it as `extensions: { cost: { ... } }` (Pothos passes extensions through). Units
 * are plain fields: a scalar read from a loaded row costs 1.
 */
export interface FieldCost {
  /** The work of resolving the field once (converting content, searching, collecting links); default 1. */
  weight?: number | ((args: Record<string, unknown>) => number);
  /** Items a list without `first`/`last` is assumed to hold (its size is unknown before it runs). */
  listSize?: number;
}

function fieldCostOf(field: GraphQLField<unknown, unknown>): FieldCost {
  return (field.extensions?.cost as FieldCost | undefined) ?? {};
}

function argumentsOf(
  field: GraphQLField<unknown, unknown>,
  node: Parameters<typeof getArgumentValues>[1],
  variables: Record<string, unknown>,
): Record<string, unknown> {
  try {
    return getArgumentValues(field, node, variables);
  } catch {
    // Invalid arguments fail the operation anyway; they add nothing to its cost.
    return {};
  }
}

/**
 * How many times a field's selection is resolved per resolution of the field: `first`/`last` as sent, else the
 * size declared on the field. Other lists count once, as graphql-armor's cost limit counted them: ordinary nested
 * reads stay cheap, and the fields whose lists matter declare their size.
 */
function multiplier(args: Record<string, unknown>, declared: FieldCost): number {
  const size = [args.first, args.last].find((value): value is number => typeof value === "number");
  return Math.max(size ?? declared.listSize ?? 1, 1);
}

/**
 * The estimated work of an operation before it runs: each field costs its declared weight (1 by default) and its
 * selection's cost times the items it returns (`first`/`last`, or the size the field declares). Variables count as sent; fragments are costed once each; introspection is free. Pure: the same
 * schema, document and variables always give the same number.
 */
export function estimateCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown> | null | undefined,
  operationName?: string | null,
): number {
  const operation = getOperationAST(document, operationName);
  if (!operation) return 0;
  const fragments = new Map(
    document.definitions
      .filter((definition): definition is FragmentDefinitionNode => definition.kind === Kind.FRAGMENT_DEFINITION)
      .map((fragment) => [fragment.name.value, fragment]),
  );
  const values = variables ?? {};
  const fragmentCosts = new Map<string, number>();

  const selectionCost = (type: GraphQLNamedType | undefined | null, selectionSet: SelectionSetNode): number => {
    let total = 0;
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.INLINE_FRAGMENT) {
        const condition = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : type;
        total += selectionCost(condition, selection.selectionSet);
        continue;
      }
      if (selection.kind === Kind.FRAGMENT_SPREAD) {
        const name = selection.name.value;
        if (!fragmentCosts.has(name)) {
          // Set first: a fragment spreading itself (refused by validation) counts once, not forever.
          fragmentCosts.set(name, 0);
          const fragment = fragments.get(name);
          if (fragment) {
            const condition = schema.getType(fragment.typeCondition.name.value);
            fragmentCosts.set(name, selectionCost(condition, fragment.selectionSet));
          }
        }
        total += fragmentCosts.get(name) ?? 0;
        continue;
      }
      const name = selection.name.value;
      if (name.startsWith("__")) continue;
      const field = isObjectType(type) || isInterfaceType(type) ? type.getFields()[name] : undefined;
      if (!field) {
        total += 1;
        continue;
      }
      const declared = fieldCostOf(field);
      const args = argumentsOf(field, selection, values);
      const weight = typeof declared.weight === "function" ? declared.weight(args) : (declared.weight ?? 1);
      total += weight;
      if (selection.selectionSet) {
        total += multiplier(args, declared) * selectionCost(getNamedType(field.type), selection.selectionSet);
      }
    }
    return total;
  };

  const root =
    operation.operation === "mutation"
      ? schema.getMutationType()
      : operation.operation === "subscription"
        ? schema.getSubscriptionType()
        : schema.getQueryType();
  return selectionCost(root, operation.selectionSet);
}
