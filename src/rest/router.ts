import { Response } from "@whatwg-node/fetch";
import {
  type ExecutionResult,
  type FragmentDefinitionNode,
  type GraphQLError,
  type GraphQLSchema,
  getNamedType,
  Kind,
  type OperationDefinitionNode,
  parse,
  type SelectionNode,
  type SelectionSetNode,
  type TypeNode,
  validate,
} from "graphql";
import { type CompiledQuery, compileQuery, isCompiledQuery } from "graphql-jit";
import type { RequestContext } from "../context.ts";
import { estimateCost } from "../graphql/cost.ts";
import { domainErrorOf } from "../graphql/errors.ts";
import { jsonResponse } from "../http/json-response.ts";
import { DomainError } from "../lib/errors.ts";
import { inputProblem, inputProblemMessage } from "../validation.ts";
import { restError } from "./errors.ts";
import { queryRuleProblem } from "./query-rules.ts";
import type { HttpMethod, RestRoute } from "./route.ts";
import { applyPlan, planSelection, type ShapePlan } from "./shape.ts";
import {
  firstVariableProblem,
  printValuePath,
  type RouteVariable,
  routeVariables,
  toSchemaValues,
  type VariableProblem,
} from "./variables.ts";

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
  /** Runs the document compiled by graphql-jit on first use (the same resolvers, without re-planning each request). */
  run(ctx: RequestContext, variables: Record<string, unknown>): Promise<ExecutionResult> | ExecutionResult;
  /** The document's estimated cost with these variables, charged like a GraphQL operation's. */
  cost(variables: Record<string, unknown>): number;
  variableTypes: Map<string, TypeNode>;
  /** The variables with their input types, to check values before execution. */
  variables: RouteVariable[];
  /** Undefined for empty responses; [] for the whole `data` object. */
  resultPath: string[] | undefined;
  plan: ShapePlan | undefined;
}

const segmentCount = (path: string) => path.replace(/\/$/, "").split("/").length;

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
 * Each route's path pattern now, its document on first use: parsing, validating and planning all 161 documents
 * took ~140 ms of every start, most routes rarely run, and the tests prepare every one (test/rest/routes.test.ts).
 */
export function compileRoutes(schema: GraphQLSchema, routes: readonly RestRoute[]): CompiledRoute[] {
  return routes.map((route) => {
    let prepared: PreparedRoute | undefined;
    return {
      route,
      ...compilePath(route.path),
      prepared: () => {
        prepared ??= prepareRoute(schema, route);
        return prepared;
      },
    };
  });
}

function prepareRoute(schema: GraphQLSchema, route: RestRoute): PreparedRoute {
  const name = `${route.method} ${route.path} (${route.operation})`;
  // Without token locations: they would hold every token of every route's document (~3 MB) for nothing.
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
  // Compiled on first run: graphql-jit's code for all routes held ~60 MB from the start, most routes rarely run.
  let compiled: CompiledQuery | undefined;
  const compile = (): CompiledQuery => {
    const result = compileQuery(schema, document);
    if (!isCompiledQuery(result)) {
      throw new Error(`Route ${name}: ${(result.errors ?? []).map((error) => error.message).join("; ")}`);
    }
    return result;
  };
  return {
    run: (ctx, variables) => {
      compiled ??= compile();
      return compiled.query(undefined, ctx, variables);
    },
    cost: (variables) => estimateCost(schema, document, variables),
    variableTypes: new Map(
      (operation.variableDefinitions ?? []).map((definition) => [definition.variable.name.value, definition.type]),
    ),
    variables: routeVariables(schema, operation.variableDefinitions),
    resultPath,
    plan: planResult(schema, operation, fragments, resultPath, name),
  };
}

class BadRequest extends Error {}

function coerceQueryValue(name: string, values: string[], type: TypeNode): unknown {
  if (type.kind === Kind.NON_NULL_TYPE) return coerceQueryValue(name, values, type.type);
  if (type.kind === Kind.LIST_TYPE) return values.map((value) => coerceQueryValue(name, [value], type.type));
  const value = values.at(-1) as string;
  switch (type.name.value) {
    case "Int": {
      if (!/^-?\d+$/.test(value)) throw new BadRequest(`Query parameter ${name} must be an integer`);
      return Number(value);
    }
    case "Float": {
      const number = Number(value);
      if (value.trim() === "" || Number.isNaN(number)) throw new BadRequest(`Query parameter ${name} must be a number`);
      return number;
    }
    case "Boolean": {
      if (value === "true" || value === "1") return true;
      if (value === "false" || value === "0") return false;
      throw new BadRequest(`Query parameter ${name} must be true or false`);
    }
    default:
      return value;
  }
}

/** The body's size was checked by the app before routing (MAX_BODY_BYTES). */
async function readJsonBody(request: Request): Promise<unknown> {
  const text = await request.text();
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new BadRequest("Request body is not valid JSON");
  }
}

/** Words a variable's problem in terms of the REST request (body fields, query and path parameters). */
function variableProblemMessage({ variable, path, problem }: VariableProblem): string {
  if (variable === "input")
    return `Invalid request body${path.length ? ` field ${printValuePath(path)}` : ""}: ${problem}`;
  return `Invalid parameter ${variable}: ${problem}`;
}

function statusOf(error: GraphQLError): { status: number; message: string } {
  const domain = domainErrorOf(error);
  if (domain) return { status: domain.status, message: domain.message };
  // Errors without a path come from checking the request itself (variables are checked before execution).
  if (!error.path) return { status: 400, message: error.message };
  return { status: 500, message: "Unexpected error." };
}

function valueAt(data: unknown, path: string[]): unknown {
  let value = data;
  for (const key of path) value = (value as Record<string, unknown> | null | undefined)?.[key];
  return value;
}

/** The 404 message of a null result: the route's own when what it reads is absent under a parent that was read. */
function absentMessage(route: RestRoute, data: unknown, variables: Readonly<Record<string, unknown>>): string {
  if (!route.absent) return "Not found";
  const path = route.absent.path.split(".");
  const absent = valueAt(data, path) == null && valueAt(data, path.slice(0, -1)) != null;
  return absent ? route.absent.message(variables) : "Not found";
}

export interface RestHandlerOptions {
  routes: CompiledRoute[];
  /** Called with errors that are not domain errors, before they are masked. */
  onUnexpectedError(error: unknown, ctx: RequestContext): void;
}

/** Answers `/v1/*` requests (path without the `/v1` prefix) by running each route's document. */
export function createRestHandler({ routes, onUnexpectedError }: RestHandlerOptions) {
  return async (
    request: Request,
    path: string,
    query: URLSearchParams,
    ctx: RequestContext,
    onMatched?: (route: RestRoute) => void,
  ): Promise<Response> => {
    const segments = segmentCount(path);
    const matching: { compiled: CompiledRoute; match: RegExpExecArray }[] = [];
    for (const compiled of routes) {
      const match = compiled.segments === segments ? compiled.pattern.exec(path) : null;
      if (match) matching.push({ compiled, match });
    }
    if (matching.length === 0) return restError(404, `No route for ${path}`);
    const found = matching.find((candidate) => candidate.compiled.route.method === (request.method as HttpMethod));
    if (!found?.match) {
      const allow = [...new Set(matching.map((candidate) => candidate.compiled.route.method))].join(", ");
      return restError(405, `Method ${request.method} is not allowed on ${path}`, { Allow: allow });
    }
    const { compiled: matched, match } = found;
    onMatched?.(matched.route);
    const compiled = matched.prepared();
    const variables: Record<string, unknown> = {};
    const refused = queryRuleProblem(matched.route.queryRules, query);
    if (refused) return restError(400, refused);
    try {
      matched.parameterNames.forEach((name, index) => {
        variables[name] = decodeURIComponent(match[index + 1] as string);
      });
      for (const name of new Set(query.keys())) {
        const type = compiled.variableTypes.get(name);
        if (type && !(name in variables)) variables[name] = coerceQueryValue(name, query.getAll(name), type);
      }
      if (compiled.variableTypes.has("input")) {
        const body = await readJsonBody(request);
        if (body !== undefined && (typeof body !== "object" || body === null || Array.isArray(body))) {
          throw new BadRequest("Request body must be a JSON object");
        }
        variables.input = body ?? {};
      }
      const problem = inputProblem(variables);
      if (problem) throw new BadRequest(inputProblemMessage(problem));
      ctx.budget.chargeCost(compiled.cost(variables));
      const variableProblem = firstVariableProblem(compiled.variables, variables);
      if (variableProblem) throw new BadRequest(variableProblemMessage(variableProblem));
      toSchemaValues(compiled.variables, variables);
    } catch (error) {
      if (error instanceof BadRequest || error instanceof URIError) return restError(400, error.message);
      if (error instanceof DomainError) return restError(error.status, error.message);
      throw error;
    }
    const result = await compiled.run(ctx, variables);
    // An outage anywhere in the result decides the answer: a not-found beside it may be its consequence.
    const firstError = result.errors?.find((error) => domainErrorOf(error)?.status === 503) ?? result.errors?.[0];
    if (firstError) {
      const { status, message } = statusOf(firstError);
      if (status === 500) onUnexpectedError(firstError.originalError ?? firstError, ctx);
      return restError(status, message);
    }
    if (matched.route.status === 204 || !compiled.plan || !compiled.resultPath) {
      return new Response(null, { status: matched.route.status });
    }
    const value = valueAt(result.data, compiled.resultPath);
    if (value === null || value === undefined)
      return restError(404, absentMessage(matched.route, result.data, variables));
    const { createdWhen } = matched.route;
    const created = createdWhen !== undefined && valueAt(result.data, createdWhen.split(".")) === true;
    return jsonResponse(applyPlan(compiled.plan, value), { status: created ? 201 : matched.route.status });
  };
}
