import {
  type ASTNode,
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
  /** Items a list without `first`/`last` holds: assumed (its size is unknown before it runs), or by its arguments. */
  listSize?: number | ((args: Record<string, unknown>) => number);
  /**
   * Why a list sized by its arguments is too long to run (`nodes(ids:)` past 100 ids), or undefined: the operation
   * is refused before any resolver decodes the list.
   */
  listProblem?: (size: number) => string | undefined;
}

/** An operation asking a field for a longer list than the field takes: a client error, refused before it runs. */
export class ListTooLongError extends Error {}

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
  const declaredSize = typeof declared.listSize === "function" ? declared.listSize(args) : declared.listSize;
  return Math.max(size ?? declaredSize ?? 1, 1);
}

/** Nodes per rate-limit point, GitHub's 100: a bucket holds points, and any operation costs at least 1. */
const nodesPerPoint = 100;

/**
 * Bytes of markdown converted that cost as much work as one node of a result: measured by `npm run bench:cost`
 * (test/bench/cost-weights.ts, docs/performance.md "What a point buys"), CPU per converted byte over CPU per node
 * of an answer, in one run.
 */
const convertedBytesPerNode = 0.67;

/** The rate-limit points an estimate of `nodeCount` nodes stands for (the cost report's `requested`). */
export function pointsOf(nodeCount: number): number {
  return Math.max(1, Math.ceil(nodeCount / nodesPerPoint));
}

/** The points an operation that ran is charged: the nodes of its result and the bytes converted for it. */
export function actualPoints(resultNodes: number, convertedBytes: number): number {
  return pointsOf(resultNodes + convertedBytes / convertedBytesPerNode);
}

/** The fields of a result, each item of a list counted: the nodes an operation's work actually produced. */
export function resultNodes(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((total: number, item) => total + resultNodes(item), 0);
  if (value === null || typeof value !== "object") return 0;
  let total = 0;
  for (const key in value) total += 1 + resultNodes((value as Record<string, unknown>)[key]);
  return total;
}

/** The names of the variables a value reads. */
function variablesIn(node: ASTNode, names: Set<string>): void {
  visit(node, {
    Variable(variable) {
      names.add(variable.name.value);
    },
  });
}

/** An operation's costs by the values of the variables that can change them. */
interface OperationCosts {
  /** Those feeding `first`, `last` or a weight that reads its arguments; often none. */
  costVariables: readonly string[];
  byValues: Map<string, number>;
}

/**
 * Costs by schema, document and operation name, then by the values of their cost variables: `space(id: $id)` is
 * costed once, and a REST list once per page size it is asked for. Documents are the parse caches' (yoga's, the
 * REST routes'), so the same text finds its entry.
 */
const knownCosts = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, Map<string, OperationCosts>>>();

/** Distinct values of an operation's cost variables kept: page sizes are few; anything else is costed each time. */
const maxCostsPerOperation = 64;

/** The cost variables' values as sent (an absent variable differs from a null one: defaults apply to it). */
function costKey(costVariables: readonly string[], variables: Record<string, unknown> | null | undefined): string {
  if (costVariables.length === 0 || !variables) return "";
  return JSON.stringify(costVariables.map((name) => (name in variables ? [variables[name]] : [])));
}

/**
 * The estimated work of an operation before it runs: each field costs its declared weight (1 by default) and its
 * selection's cost times the items it returns (`first`/`last`, or the size the field declares). Variables count as
 * sent; fragments are costed once each; introspection is free. Pure: the same schema, document and variables always
 * give the same number. Throws ListTooLongError when a field's list is longer than it takes.
 */
export function estimateCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown> | null | undefined,
  operationName?: string | null,
): number {
  let byDocument = knownCosts.get(schema);
  if (!byDocument) {
    byDocument = new WeakMap();
    knownCosts.set(schema, byDocument);
  }
  let byOperation = byDocument.get(document);
  if (!byOperation) {
    byOperation = new Map();
    byDocument.set(document, byOperation);
  }
  const operationKey = operationName ?? "";
  const known = byOperation.get(operationKey);
  const knownCost = known?.byValues.get(costKey(known.costVariables, variables));
  if (knownCost !== undefined) return knownCost;
  const { cost, costVariables } = walkCost(schema, document, variables, operationName);
  // Without its cost variables (an argument did not parse), the figure holds for these variables only.
  if (!costVariables) return cost;
  const entry = known ?? { costVariables: [...costVariables].sort(), byValues: new Map<string, number>() };
  byOperation.set(operationKey, entry);
  if (entry.byValues.size < maxCostsPerOperation) entry.byValues.set(costKey(entry.costVariables, variables), cost);
  return cost;
}

function walkCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown> | null | undefined,
  operationName?: string | null,
): { cost: number; costVariables: Set<string> | undefined } {
  const operation = getOperationAST(document, operationName);
  if (!operation) return { cost: 0, costVariables: new Set() };
  let costVariables: Set<string> | undefined = new Set<string>();
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
      if (!parsed) costVariables = undefined;
      const args = parsed ?? {};
      if (costVariables && selection.arguments?.length) {
        const sizedByArguments = typeof declared.weight === "function" || typeof declared.listSize === "function";
        const paged = selection.selectionSet !== undefined;
        for (const argument of selection.arguments) {
          const sizing = paged && (argument.name.value === "first" || argument.name.value === "last");
          if (sizedByArguments || sizing) variablesIn(argument.value, costVariables);
        }
      }
      if (declared.listProblem && typeof declared.listSize === "function") {
        const problem = declared.listProblem(declared.listSize(args));
        if (problem) throw new ListTooLongError(problem);
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
  const cost = selectionCost(root, operation.selectionSet);
  return { cost, costVariables };
}
