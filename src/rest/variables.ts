import {
  coerceInputValue,
  type DocumentNode,
  type GraphQLInputType,
  type GraphQLSchema,
  getNamedType,
  isInputObjectType,
  isInputType,
  isNonNullType,
  Kind,
  TypeInfo,
  typeFromAST,
  type VariableDefinitionNode,
  visit,
  visitWithTypeInfo,
} from "graphql";
import { isMutationArgumentField } from "../graphql/mutation-input.ts";
import { type ServiceCheck, serviceCheckOf } from "../graphql/service-check.ts";
import { InvalidInputError } from "../lib/errors.ts";
import { parseInput } from "../lib/validation.ts";
import { publicInputType, type ToSchemaValue, toSchemaValueOf } from "./public-enums.ts";

/** A variable of a route's document, with its input type resolved once at start-up. */
export interface RouteVariable {
  name: string;
  /** The type REST values are checked against: the variable's, with enums taking their public values. */
  type: GraphQLInputType;
  hasDefault: boolean;
  /** Turns a checked REST value into the variable's value; absent when the type reaches no enum. */
  toSchemaValue?: ToSchemaValue;
  /**
   * The fields of a mutation's `input` that were its arguments (src/graphql/mutation-input.ts): the service checks
   * the rest, so they are left out of what its check sees.
   */
  argumentFields: ReadonlySet<string>;
}

/** What is wrong with one variable's value, as data: the REST router words it for the request. */
export interface VariableProblem {
  variable: string;
  /** Where inside the value (object keys and list indexes); empty for the value itself. */
  path: readonly (string | number)[];
  problem: string;
  /** The whole REST message, when the service's own check words the problem (`checkedByService`). */
  message?: string;
}

/** The service checks of the arguments the document passes variables to, by variable name. */
function serviceChecksOfVariables(schema: GraphQLSchema, document: DocumentNode): Map<string, ServiceCheck> {
  const checks = new Map<string, ServiceCheck>();
  const typeInfo = new TypeInfo(schema);
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Argument(node) {
        const check = serviceCheckOf(typeInfo.getArgument()?.extensions);
        if (check && node.value.kind === Kind.VARIABLE) checks.set(node.value.name.value, check);
      },
    }),
  );
  return checks;
}

export function routeVariables(
  schema: GraphQLSchema,
  document: DocumentNode,
  definitions: readonly VariableDefinitionNode[] = [],
): RouteVariable[] {
  const serviceChecks = serviceChecksOfVariables(schema, document);
  return definitions.map((definition) => {
    const name = definition.variable.name.value;
    const type = typeFromAST(schema, definition.type);
    if (!type || !isInputType(type)) throw new Error(`Variable $${name} has no input type`);
    const toSchemaValue = toSchemaValueOf(type);
    const named = getNamedType(type);
    const fields = isInputObjectType(named) ? Object.values(named.getFields()) : [];
    return {
      name,
      type: publicInputType(type, serviceChecks.get(name)),
      hasDefault: definition.defaultValue !== undefined,
      argumentFields: new Set(fields.filter(isMutationArgumentField).map((field) => field.name)),
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
  for (const { name, type, hasDefault, argumentFields } of variables) {
    const value = values[name];
    if (value === undefined) {
      if (isNonNullType(type) && !hasDefault) return { variable: name, path: [], problem: "a value is required" };
      continue;
    }
    let found: VariableProblem | undefined;
    coerceInputValue(value, type, (path, _invalidValue, error) => {
      if (found) return;
      const serviceCheck = serviceCheckOf(error.extensions);
      const message = serviceCheck && serviceWording(serviceCheck, withoutFields(value, argumentFields), path);
      found = { variable: name, path, problem: error.message, ...(message && { message }) };
    });
    if (found) return found;
  }
  return undefined;
}

/** An input object without the fields the service does not check (a mutation's former arguments). */
function withoutFields(value: unknown, fields: ReadonlySet<string>): unknown {
  if (fields.size === 0 || typeof value !== "object" || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => !fields.has(key)));
}

/** The service's message for a value its check refuses: its check run on the part of the value it validates. */
function serviceWording(
  { schema, levelsUp }: ServiceCheck,
  value: unknown,
  path: readonly (string | number)[],
): string | undefined {
  if (levelsUp > path.length) return undefined;
  const at = path.slice(0, path.length - levelsUp);
  let checked = value;
  for (const key of at) checked = (checked as Record<string | number, unknown>)[key];
  try {
    parseInput(schema, checked, at);
  } catch (error) {
    if (error instanceof InvalidInputError) return error.message;
    throw error;
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
