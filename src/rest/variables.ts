import {
  coerceInputValue,
  type GraphQLInputType,
  type GraphQLSchema,
  isInputType,
  isNonNullType,
  typeFromAST,
  type VariableDefinitionNode,
} from "graphql";
import { publicInputType, type ToSchemaValue, toSchemaValueOf } from "./public-enums.ts";

/** A variable of a route's document, with its input type resolved once at start-up. */
export interface RouteVariable {
  name: string;
  /** The type REST values are checked against: the variable's, with enums taking their public values. */
  type: GraphQLInputType;
  hasDefault: boolean;
  /** Turns a checked REST value into the variable's value; absent when the type reaches no enum. */
  toSchemaValue?: ToSchemaValue;
}

/** What is wrong with one variable's value, as data: the REST router words it for the request. */
export interface VariableProblem {
  variable: string;
  /** Where inside the value (object keys and list indexes); empty for the value itself. */
  path: readonly (string | number)[];
  problem: string;
}

export function routeVariables(
  schema: GraphQLSchema,
  definitions: readonly VariableDefinitionNode[] = [],
): RouteVariable[] {
  return definitions.map((definition) => {
    const name = definition.variable.name.value;
    const type = typeFromAST(schema, definition.type);
    if (!type || !isInputType(type)) throw new Error(`Variable $${name} has no input type`);
    const toSchemaValue = toSchemaValueOf(type);
    return {
      name,
      type: publicInputType(type),
      hasDefault: definition.defaultValue !== undefined,
      ...(toSchemaValue && { toSchemaValue }),
    };
  });
}

/**
 * Coerces each value against its variable's type, as execution would, and answers the first problem. Run before
 * execution, so the REST error never depends on how graphql-js words a variable error.
 */
export function firstVariableProblem(
  variables: readonly RouteVariable[],
  values: Record<string, unknown>,
): VariableProblem | undefined {
  for (const { name, type, hasDefault } of variables) {
    const value = values[name];
    if (value === undefined) {
      if (isNonNullType(type) && !hasDefault) return { variable: name, path: [], problem: "a value is required" };
      continue;
    }
    let found: VariableProblem | undefined;
    coerceInputValue(value, type, (path, _invalidValue, error) => {
      found ??= { variable: name, path, problem: error.message };
    });
    if (found) return found;
  }
  return undefined;
}

/** Replaces checked REST values by the variables' values (enum names for public values), in place. */
export function toSchemaValues(variables: readonly RouteVariable[], values: Record<string, unknown>): void {
  for (const { name, toSchemaValue } of variables) {
    const value = values[name];
    if (toSchemaValue && value !== undefined && value !== null) values[name] = toSchemaValue(value);
  }
}

/** `items[0].title` for the path `["items", 0, "title"]`. */
export function printValuePath(path: readonly (string | number)[]): string {
  return path.map((key, index) => (typeof key === "number" ? `[${key}]` : index === 0 ? key : `.${key}`)).join("");
}
