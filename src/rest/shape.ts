import {
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  getNamedType,
  isAbstractType,
  isEnumType,
  isObjectType,
  Kind,
  type NamedTypeNode,
  type SelectionSetNode,
} from "graphql";
import { restKeepsNull, restNestsByParent, restObjectNames } from "./conventions.ts";

/**
 * How to turn one selected value into REST JSON, computed once per route from its document and the schema:
 * nulls are dropped unless the field keeps them, connections become `{ items, count, next }` envelopes, and
 * `__typename` answers the REST object name (see `conventions.ts`).
 */
export interface ShapePlan {
  keepsNull: boolean;
  connection: boolean;
  /** A flat list whose items nest under the item their `parent` names (`restNestsByParent`). */
  nestsByParent?: boolean;
  /** A `__typename` whose value becomes the type's REST object name. */
  objectName?: boolean;
  /** An enum's value: its GraphQL name -> the public value the REST body carries (`ADMIN` -> `admin`). */
  publicValues?: ReadonlyMap<string, unknown>;
  fields?: Map<string, ShapePlan>;
}

/** Checks at start-up that every type a `__typename` can name has a REST object name. */
function planObjectName(schema: GraphQLSchema, parentType: GraphQLNamedType): ShapePlan {
  const types = isAbstractType(parentType) ? schema.getPossibleTypes(parentType) : [parentType];
  const unnamed = types.find((type) => !(type.name in restObjectNames));
  if (unnamed)
    throw new Error(`REST documents select __typename only on types with a REST object name (${unnamed.name})`);
  return { keepsNull: false, connection: false, objectName: true };
}

function isConnectionType(type: GraphQLNamedType): boolean {
  return isObjectType(type) && type.name.endsWith("Connection") && "pageInfo" in type.getFields();
}

export function planSelection(
  schema: GraphQLSchema,
  parentType: GraphQLNamedType,
  selectionSet: SelectionSetNode,
  fragments: Map<string, FragmentDefinitionNode>,
  fields = new Map<string, ShapePlan>(),
): Map<string, ShapePlan> {
  // Fragments narrow the type (a union's members); their fields share one plan per response key.
  const narrowed = (condition: NamedTypeNode | undefined) =>
    (condition && schema.getType(condition.name.value)) || parentType;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FRAGMENT_SPREAD) {
      const fragment = fragments.get(selection.name.value);
      if (!fragment) throw new Error(`Unknown fragment ${selection.name.value}`);
      planSelection(schema, narrowed(fragment.typeCondition), fragment.selectionSet, fragments, fields);
      continue;
    }
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      planSelection(schema, narrowed(selection.typeCondition), selection.selectionSet, fragments, fields);
      continue;
    }
    const key = selection.alias?.value ?? selection.name.value;
    if (selection.name.value === "__typename") {
      fields.set(key, planObjectName(schema, parentType));
      continue;
    }
    if (!isObjectType(parentType))
      throw new Error(`REST documents select fields on object types only (${parentType.name})`);
    const field = parentType.getFields()[selection.name.value] as GraphQLField<unknown, unknown> | undefined;
    if (!field) throw new Error(`Unknown field ${parentType.name}.${selection.name.value}`);
    const coordinate = `${parentType.name}.${field.name}`;
    const type = getNamedType(field.type);
    const plan: ShapePlan = fields.get(key) ?? {
      keepsNull: restKeepsNull.has(coordinate),
      connection: isConnectionType(type),
      nestsByParent: restNestsByParent.has(coordinate),
      ...(isEnumType(type) && { publicValues: new Map(type.getValues().map((value) => [value.name, value.value])) }),
    };
    if (selection.selectionSet) {
      plan.fields = planSelection(schema, type, selection.selectionSet, fragments, plan.fields ?? new Map());
    }
    fields.set(key, plan);
  }
  return fields;
}

interface ConnectionResult {
  totalCount?: number;
  pageInfo?: { hasNextPage?: boolean; endCursor?: string | null };
  nodes?: unknown[];
  [extra: string]: unknown;
}

/** The fields every connection has; the others a list selects (a list's `stats`) join the envelope as they are. */
export const connectionFields = new Set(["totalCount", "pageInfo", "nodes", "edges"]);

/**
 * Turns a flat list of `{ id, parent, ... }` into a tree: each item goes into the `pages` of the item its `parent`
 * names, and items whose parent is not in the list are the top level. `parent` itself is not part of the output.
 */
function nestByParent(items: Record<string, unknown>[]): Record<string, unknown>[] {
  const byId = new Map<unknown, Record<string, unknown>>();
  for (const item of items) {
    item.pages = [];
    byId.set(item.id, item);
  }
  const top: Record<string, unknown>[] = [];
  for (const item of items) {
    const parent = byId.get(item.parent);
    delete item.parent;
    if (parent) (parent.pages as unknown[]).push(item);
    else top.push(item);
  }
  return top;
}

export function applyPlan(plan: ShapePlan, value: unknown): unknown {
  if (value === null || value === undefined) return value;
  if (plan.objectName) return restObjectNames[value as string];
  if (Array.isArray(value)) {
    const items = value.map((item) => applyPlan(plan, item));
    return plan.nestsByParent ? nestByParent(items as Record<string, unknown>[]) : items;
  }
  if (plan.publicValues) return plan.publicValues.get(value as string);
  if (!plan.fields || typeof value !== "object") return value;
  if (plan.connection) {
    const connection = value as ConnectionResult;
    const nodesPlan = plan.fields.get("nodes");
    const envelope: Record<string, unknown> = {
      items: (connection.nodes ?? []).map((node) => (nodesPlan ? applyPlan(nodesPlan, node) : node)),
    };
    if (connection.totalCount !== undefined) envelope.count = connection.totalCount;
    if (connection.pageInfo?.hasNextPage && connection.pageInfo.endCursor) {
      envelope.next = { page: connection.pageInfo.endCursor };
    }
    for (const [key, childPlan] of plan.fields) {
      const child = connection[key];
      if (!connectionFields.has(key) && child !== null && child !== undefined) {
        envelope[key] = applyPlan(childPlan, child);
      }
    }
    return envelope;
  }
  const out: Record<string, unknown> = {};
  const object = value as Record<string, unknown>;
  // for...in over the result's own keys (execution results are plain objects): Object.entries allocated a pair per
  // field, a fifth of a 1000-item list's shaping.
  for (const key in object) {
    const child = object[key];
    const childPlan = plan.fields.get(key);
    if (child === null && !childPlan?.keepsNull) continue;
    out[key] = childPlan ? applyPlan(childPlan, child) : child;
  }
  return out;
}
