import {
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLInputObjectType,
  type GraphQLSchema,
  getNamedType,
  isInputObjectType,
  Kind,
  type NamedTypeNode,
  type OperationDefinitionNode,
  parse,
  type SelectionNode,
  type SelectionSetNode,
  type TypeNode,
  typeFromAST,
  type VariableDefinitionNode,
  validate,
} from "graphql";
import { isMutationArgumentField } from "../graphql/mutation-input.ts";
import type { RestRoute } from "./route.ts";
import { planSelection, type ShapePlan } from "./shape.ts";
import { type RouteVariable, routeVariables } from "./variables.ts";

// Each `/v1` route compiled from its data (src/rest/route.ts): its path pattern at start, its document on first use.

export interface CompiledRoute {
  route: RestRoute;
  pattern: RegExp;
  /** Segments of its path: only routes with as many as the request's are tried. */
  segments: number;
  parameterNames: string[];
  /** Its document parsed, validated and planned on first use; a document that does not validate throws. */
  prepared(): PreparedRoute;
}

interface PreparedRoute {
  /** Parsed and validated once; run by the GraphQL pipeline, which compiles it on its first run. */
  document: DocumentNode;
  variableTypes: Map<string, TypeNode>;
  /** The variables with their input types, to check values before execution. */
  variables: RouteVariable[];
  /** Undefined for empty responses; [] for the whole `data` object. */
  resultPath: string[] | undefined;
  plan: ShapePlan | undefined;
  /** Path parameters that are fields of `$input` (the mutation's one argument), not variables of their own. */
  inputPathParameters: string[];
  /** The fields of `$input` the body may not name (ids from the path or arguments), with the input type's name. */
  notInBody: Map<string, string>;
}

export const segmentCount = (path: string) => path.replace(/\/$/, "").split("/").length;

function compilePath(path: string): { pattern: RegExp; segments: number; parameterNames: string[] } {
  const parameterNames: string[] = [];
  const source = path
    .split("/")
    .map((segment) => {
      const parameter = /^\{(\w+)\}$/.exec(segment);
      if (!parameter) return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      parameterNames.push(parameter[1] as string);
      return "([^/]+)";
    })
    .join("/");
  return { pattern: new RegExp(`^${source}/?$`), segments: segmentCount(path), parameterNames };
}

function planResult(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: Map<string, FragmentDefinitionNode>,
  resultPath: string[] | undefined,
  routeName: string,
): ShapePlan | undefined {
  if (!resultPath) return undefined;
  let type = getNamedType(operation.operation === "mutation" ? schema.getMutationType() : schema.getQueryType());
  let selectionSet: SelectionSetNode | undefined = operation.selectionSet;
  let plan: ShapePlan | undefined;
  for (const key of resultPath) {
    const selection: SelectionNode | undefined = selectionSet?.selections.find(
      (candidate) => candidate.kind === Kind.FIELD && (candidate.alias?.value ?? candidate.name.value) === key,
    );
    if (!selection || selection.kind !== Kind.FIELD || !type || !("getFields" in type)) {
      throw new Error(`Route ${routeName}: result path ${resultPath.join(".")} is not selected by its document`);
    }
    const field = type.getFields()[selection.name.value];
    if (!field) throw new Error(`Route ${routeName}: unknown field ${selection.name.value}`);
    type = getNamedType(field.type);
    selectionSet = selection.selectionSet;
    plan = { keepsNull: false, connection: type.name.endsWith("Connection") };
  }
  plan ??= { keepsNull: false, connection: false };
  if (selectionSet && type) planSelection(schema, type, selectionSet, fragments, plan);
  return plan;
}

/**
 * Each route's path pattern now, its document on first use: parsing, validating and planning every document
 * lengthened every start, most routes rarely run, and the tests prepare every one (test/rest/routes.test.ts).
 */
export function compileRoutes(schema: GraphQLSchema, routes: readonly RestRoute[]): CompiledRoute[] {
  return routes.map((route) => {
    let prepared: PreparedRoute | undefined;
    const path = compilePath(route.path);
    return {
      route,
      ...path,
      prepared: () => {
        prepared ??= prepareRoute(schema, route, path.parameterNames);
        return prepared;
      },
    };
  });
}

/**
 * Where `$input`'s fields come from: a mutation takes its ids inside its one `input` (src/graphql/mutation-input.ts),
 * and the path parameters the document declares no variable for are those fields; the other fields that were
 * arguments are not the body's to set either (the body carries what the mutation's declared input held).
 */
function inputSources(
  schema: GraphQLSchema,
  parameterNames: readonly string[],
  variables: readonly VariableDefinitionNode[],
  routeName: string,
): { inputPathParameters: string[]; notInBody: Map<string, string> } {
  const declared = new Map(variables.map((definition) => [definition.variable.name.value, definition.type]));
  const inputPathParameters = parameterNames.filter((name) => !declared.has(name));
  const inputTypeNode = declared.get("input");
  const named = inputTypeNode && getNamedType(typeFromAST(schema, inputTypeNode as NamedTypeNode));
  const fields = named && isInputObjectType(named) ? Object.values(named.getFields()) : [];
  for (const name of inputPathParameters) {
    if (!fields.some((field) => field.name === name)) {
      throw new Error(`Route ${routeName}: path parameter ${name} is neither a variable nor an input field`);
    }
  }
  const notInBody = new Map(
    fields
      .filter((field) => isMutationArgumentField(field) || inputPathParameters.includes(field.name))
      .map((field) => [field.name, (named as GraphQLInputObjectType).name]),
  );
  return { inputPathParameters, notInBody };
}

function prepareRoute(schema: GraphQLSchema, route: RestRoute, parameterNames: readonly string[]): PreparedRoute {
  const name = `${route.method} ${route.path} (${route.operation})`;
  // Without token locations: they would hold every token of every route's document in memory for nothing.
  const document = parse(route.document, { noLocation: true });
  const errors = validate(schema, document);
  if (errors.length > 0) throw new Error(`Route ${name}: ${errors.map((error) => error.message).join("; ")}`);
  const operation = document.definitions.find(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  if (!operation) throw new Error(`Route ${name}: no operation in its document`);
  const fragments = new Map(
    document.definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((fragment) => [fragment.name.value, fragment]),
  );
  const resultPath = route.result?.split(".").filter(Boolean);
  return {
    document,
    variableTypes: new Map(
      (operation.variableDefinitions ?? []).map((definition) => [definition.variable.name.value, definition.type]),
    ),
    variables: routeVariables(schema, document, operation.variableDefinitions),
    ...inputSources(schema, parameterNames, operation.variableDefinitions ?? [], name),
    resultPath,
    plan: planResult(schema, operation, fragments, resultPath, name),
  };
}
