import {
  type ASTNode,
  BREAK,
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
  visit,
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
): Record<string, unknown> | undefined {
  try {
    return getArgumentValues(field, node, variables);
  } catch {
    // Invalid arguments fail the operation anyway; they add nothing to its cost.
    return undefined;
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

const usesVariable = (node: ASTNode | undefined): boolean => {
  let found = false;
  if (node)
    visit(node, {
      Variable() {
        found = true;
        return BREAK;
      },
    });
  return found;
};

/**
 * Costs of operations whose variables cannot change them (none feeds `first`, `last` or a weight that reads its
 * arguments), by schema, document and operation name: most reads, `space(id: $id)` among them, are costed once.
 * Documents are the parse caches' (yoga's, the REST routes'), so the same text finds its entry.
 */
const constantCosts = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, Map<string, number>>>();

/**
 * The estimated work of an operation before it runs: each field costs its declared weight (1 by default) and its
 * selection's cost times the items it returns (`first`/`last`, or the size the field declares). Variables count as
 * sent; fragments are costed once each; introspection is free. Pure: the same schema, document and variables always
 * give the same number.
 */
export function estimateCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown> | null | undefined,
  operationName?: string | null,
): number {
  let byDocument = constantCosts.get(schema);
  if (!byDocument) {
    byDocument = new WeakMap();
    constantCosts.set(schema, byDocument);
  }
  let byOperation = byDocument.get(document);
  if (!byOperation) {
    byOperation = new Map();
    byDocument.set(document, byOperation);
  }
  const known = byOperation.get(operationName ?? "");
  if (known !== undefined) return known;
  const { cost, variableDependent } = walkCost(schema, document, variables, operationName);
  if (!variableDependent) byOperation.set(operationName ?? "", cost);
  return cost;
}

function walkCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown> | null | undefined,
  operationName?: string | null,
): { cost: number; variableDependent: boolean } {
  const operation = getOperationAST(document, operationName);
  if (!operation) return { cost: 0, variableDependent: false };
  let variableDependent = false;
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
      const parsed = argumentsOf(field, selection, values);
      // Arguments that did not parse are costed as absent: that figure holds for these variables only.
      if (!parsed) variableDependent = true;
      const args = parsed ?? {};
      if (!variableDependent && selection.arguments?.length) {
        const sizedByArguments = typeof declared.weight === "function";
        const paged = selection.selectionSet !== undefined;
        variableDependent = selection.arguments.some(
          (argument) =>
            (sizedByArguments || (paged && (argument.name.value === "first" || argument.name.value === "last"))) &&
            usesVariable(argument.value),
        );
      }
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
  return { cost: selectionCost(root, operation.selectionSet), variableDependent };
}
