import { Response } from "@whatwg-node/fetch";
import { type DocumentNode, type ExecutionResult, type GraphQLError, Kind, type TypeNode } from "graphql";
import { type ErrorCode, isErrorCode } from "../lib/error-codes.ts";
import { DomainError } from "../lib/errors.ts";
import { inputProblem, inputProblemMessage } from "../lib/validation.ts";
import { restError } from "../web/errors.ts";
import { jsonResponse } from "../web/json-response.ts";
import { type CompiledRoute, segmentCount } from "./compiled-routes.ts";
import { queryRuleProblem } from "./query-rules.ts";
import type { HttpMethod, RestRoute } from "./route.ts";
import { applyPlan } from "./shape.ts";
import { firstVariableProblem, printValuePath, toSchemaValues, type VariableProblem } from "./variables.ts";

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

/** The body without the fields the route ignores, each checked to be a string or null as documented. */
function withoutIgnoredFields(body: unknown, ignored: Readonly<Record<string, string>> = {}): object {
  const kept: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(body ?? {})) {
    if (!(name in ignored)) kept[name] = value;
    else if (value !== null && typeof value !== "string") {
      throw new BadRequest(`Invalid request body field ${name}: must be a string`);
    }
  }
  return kept;
}

/** Words a variable's problem in terms of the REST request (body fields, query and path parameters). */
function variableProblemMessage({ variable, path, problem, message }: VariableProblem): string {
  if (message) return message;
  if (variable === "input")
    return `Invalid request body${path.length ? ` field ${printValuePath(path)}` : ""}: ${problem}`;
  return `Invalid parameter ${variable}: ${problem}`;
}

/**
 * The kind of an error of the pipeline, which has masked it (src/graphql/errors.ts): its code, read through the error
 * table like any other error (domain errors, refusals of cost or input, the masked unexpected ones). graphql-js's own
 * errors (codes outside the table) without a path come from checking the request itself: bad input. With a path they
 * arose while executing and were logged: unexpected.
 */
function kindOf(error: GraphQLError): ErrorCode {
  const code = error.extensions?.code;
  if (isErrorCode(code)) return code;
  return error.path ? "INTERNAL_SERVER_ERROR" : "BAD_USER_INPUT";
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

/** Runs a route's document for the request through the GraphQL pipeline (src/graphql/server.ts). */
export type ExecuteDocument = (document: DocumentNode, variables: Record<string, unknown>) => Promise<ExecutionResult>;

/** Answers `/v1/*` requests (path without the `/v1` prefix) by running each route's document. */
export function createRestHandler(routes: CompiledRoute[]) {
  return async (
    request: Request,
    path: string,
    query: URLSearchParams,
    execute: ExecuteDocument,
    onMatched?: (route: RestRoute) => void,
  ): Promise<Response> => {
    const segments = segmentCount(path);
    const matching: { compiled: CompiledRoute; match: RegExpExecArray }[] = [];
    for (const compiled of routes) {
      const match = compiled.segments === segments ? compiled.pattern.exec(path) : null;
      if (match) matching.push({ compiled, match });
    }
    if (matching.length === 0) return restError("NOT_FOUND", `No route for ${path}`);
    const found = matching.find((candidate) => candidate.compiled.route.method === (request.method as HttpMethod));
    if (!found?.match) {
      const allow = [...new Set(matching.map((candidate) => candidate.compiled.route.method))].join(", ");
      return restError("METHOD_NOT_ALLOWED", `Method ${request.method} is not allowed on ${path}`, { Allow: allow });
    }
    const { compiled: matched, match } = found;
    onMatched?.(matched.route);
    const compiled = matched.prepared();
    const variables: Record<string, unknown> = {};
    const refused = queryRuleProblem(matched.route.queryRules, query);
    if (refused) return restError("BAD_USER_INPUT", refused);
    try {
      const inputFromPath: Record<string, string> = {};
      matched.parameterNames.forEach((name, index) => {
        const value = decodeURIComponent(match[index + 1] as string);
        if (compiled.inputPathParameters.includes(name)) inputFromPath[name] = value;
        else variables[name] = value;
      });
      const translated = matched.route.queryVariables;
      if (translated)
        Object.assign(
          variables,
          translated.from((parameter) => query.getAll(parameter).at(-1)),
        );
      for (const name of new Set(query.keys())) {
        const type = compiled.variableTypes.get(name);
        if (type && !(name in variables) && !translated?.variables.includes(name)) {
          variables[name] = coerceQueryValue(name, query.getAll(name), type);
        }
      }
      if (compiled.variableTypes.has("input")) {
        const body = await readJsonBody(request);
        if (body !== undefined && (typeof body !== "object" || body === null || Array.isArray(body))) {
          throw new BadRequest("Request body must be a JSON object");
        }
        // Worded as when the body's type had no such field: ids come from the path, never from the body.
        const named = Object.keys(body ?? {}).find((name) => compiled.notInBody.has(name));
        if (named) {
          const type = compiled.notInBody.get(named);
          throw new BadRequest(
            `Invalid request body field ${named}: Field "${named}" is not defined by type "${type}".`,
          );
        }
        variables.input = { ...withoutIgnoredFields(body, matched.route.ignoredBodyFields), ...inputFromPath };
      }
      // The call's one check for NUL and nesting: the GraphQL pipeline runs a route's document on these as checked.
      const problem = inputProblem(variables);
      if (problem) throw new BadRequest(inputProblemMessage(problem));
      const variableProblem = firstVariableProblem(compiled.variables, variables);
      if (variableProblem) throw new BadRequest(variableProblemMessage(variableProblem));
      toSchemaValues(compiled.variables, variables);
    } catch (error) {
      if (error instanceof BadRequest || error instanceof URIError) return restError("BAD_USER_INPUT", error.message);
      if (error instanceof DomainError) return restError(error.code, error.message);
      throw error;
    }
    const result = await execute(compiled.document, variables);
    // An outage anywhere in the result decides the answer: a not-found beside it may be its consequence.
    const firstError = result.errors?.find((error) => kindOf(error) === "SERVICE_UNAVAILABLE") ?? result.errors?.[0];
    if (firstError) return restError(kindOf(firstError), firstError.message);
    if (matched.route.status === 204 || !compiled.plan || !compiled.resultPath) {
      return new Response(null, { status: matched.route.status });
    }
    const value = valueAt(result.data, compiled.resultPath);
    if (value === null || value === undefined)
      return restError("NOT_FOUND", absentMessage(matched.route, result.data, variables));
    const { createdWhen } = matched.route;
    const created = createdWhen !== undefined && valueAt(result.data, createdWhen.split(".")) === true;
    return jsonResponse(applyPlan(compiled.plan, value), { status: created ? 201 : matched.route.status });
  };
}
