/**
 * Contract-test helper: validates REST response bodies against the response schemas of the public
 * GitBook OpenAPI spec shipped in `@gitbook/api` (`spec/openapi.json`, OpenAPI 3.1 → JSON Schema 2020-12).
 *
 * How it works:
 *  - the spec is parsed once (lazily) and normalised in place for OpenAPI-3.0-isms (`nullable: true`,
 *    boolean `exclusiveMinimum`/`exclusiveMaximum`) so ajv understands them;
 *  - the whole spec document is registered in ONE Ajv2020 instance under `SPEC_ID`, so every
 *    `$ref: "#/components/..."` inside a response schema resolves against the spec itself;
 *  - a response validator is compiled as `{ $ref: "<SPEC_ID>#/paths/.../content/application~1json/schema" }`
 *    and cached per `operationId:status`; referenced component validators are shared between operations;
 *  - OpenAPI-only keywords (`discriminator`, `example`, `xml`, `externalDocs`, `x-*`...) are ignored
 *    (`strict: false`), and every `format` name used by the spec that ajv-formats does not know
 *    (`emoji`, `icon`, ...) is registered as a no-op format, so compilation never fails on them.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { ErrorObject, ValidateFunction } from "ajv/dist/2020.js";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

const SPEC_ID = "https://gitbook.local/openapi.json";
const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;
const MAX_ERRORS_SHOWN = 15;
const BODY_EXCERPT_CHARS = 600;

type JsonObject = Record<string, unknown>;

interface SpecOperationEntry {
  operationId: string;
  method: string; // upper-case HTTP method
  path: string; // spec path, relative to the `/v1` server base, e.g. `/orgs/{organizationId}`
  /** JSON pointer (unescaped segments) to the operation object inside the spec. */
  pointer: string[];
  responses: JsonObject;
}

interface ResolvedResponse {
  /** The status key of the spec entry actually used (`"200"`, `"205"`, `"default"`...). */
  declaredAs: string;
  /** Undefined when the response declares no body at all. */
  content: JsonObject | undefined;
  /** Pointer segments to the `application/json` schema, when there is one. */
  jsonSchemaPointer: string[] | undefined;
  jsonSchema: JsonObject | undefined;
}

interface SpecState {
  spec: JsonObject;
  operations: Map<string, SpecOperationEntry>;
  ajv: Ajv2020;
  validators: Map<string, ValidateFunction>;
}

let state: SpecState | undefined;

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Rewrites OpenAPI 3.0 schema dialect bits into JSON Schema 2020-12, in place. */
function normalizeOpenApiSchemas(node: unknown, formats: Set<string>): unknown {
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) node[i] = normalizeOpenApiSchemas(node[i], formats);
    return node;
  }
  if (!isObject(node)) return node;
  for (const key of Object.keys(node)) node[key] = normalizeOpenApiSchemas(node[key], formats);

  if (typeof node.format === "string") formats.add(node.format);

  for (const [bool, limit] of [
    ["exclusiveMinimum", "minimum"],
    ["exclusiveMaximum", "maximum"],
  ] as const) {
    if (typeof node[bool] === "boolean") {
      if (node[bool] === true && typeof node[limit] === "number") {
        node[bool] = node[limit];
        delete node[limit];
      } else {
        delete node[bool];
      }
    }
  }

  if (node.nullable === true) {
    delete node.nullable;
    if (Array.isArray(node.enum) && !node.enum.includes(null)) node.enum = [...node.enum, null];
    if (typeof node.type === "string") {
      node.type = [node.type, "null"];
    } else if (Array.isArray(node.type)) {
      if (!node.type.includes("null")) node.type = [...node.type, "null"];
    } else {
      // `$ref` / `allOf` / `oneOf` ... + nullable: wrap the whole schema.
      const inner: JsonObject = { ...node };
      for (const key of Object.keys(node)) delete node[key];
      node.anyOf = [inner, { type: "null" }];
    }
  } else if (node.nullable === false) {
    delete node.nullable;
  }
  return node;
}

function escapePointerSegment(segment: string): string {
  return encodeURIComponent(segment.replace(/~/g, "~0").replace(/\//g, "~1"));
}

function loadState(): SpecState {
  if (state) return state;
  const require = createRequire(import.meta.url);
  const specPath = require.resolve("@gitbook/api/spec/openapi.json");
  const spec = JSON.parse(readFileSync(specPath, "utf8")) as JsonObject;

  const usedFormats = new Set<string>();
  normalizeOpenApiSchemas(spec.components, usedFormats);
  normalizeOpenApiSchemas(spec.paths, usedFormats);

  const operations = new Map<string, SpecOperationEntry>();
  const paths = isObject(spec.paths) ? spec.paths : {};
  for (const [path, pathItem] of Object.entries(paths)) {
    if (!isObject(pathItem)) continue;
    for (const method of HTTP_METHODS) {
      const op = pathItem[method];
      if (!isObject(op) || typeof op.operationId !== "string") continue;
      operations.set(op.operationId, {
        operationId: op.operationId,
        method: method.toUpperCase(),
        path,
        pointer: ["paths", path, method],
        responses: isObject(op.responses) ? op.responses : {},
      });
    }
  }

  const ajv = new Ajv2020({
    strict: false,
    allErrors: true,
    validateSchema: false,
    // `discriminator` is left as an (ignored) annotation: `oneOf` does the actual checking.
    discriminator: false,
  });
  addFormats(ajv);
  for (const format of usedFormats) {
    if (!ajv.formats[format]) ajv.addFormat(format, true);
  }
  ajv.addSchema(spec, SPEC_ID);

  state = { spec, operations, ajv, validators: new Map() };
  return state;
}

function getOperation(operationId: string): SpecOperationEntry {
  const { operations } = loadState();
  const entry = operations.get(operationId);
  if (!entry) {
    const lower = operationId.toLowerCase();
    const similar = [...operations.keys()]
      .filter((id) => id.toLowerCase().includes(lower.slice(0, 12)) || lower.includes(id.toLowerCase()))
      .slice(0, 5);
    throw new Error(
      `Unknown operationId "${operationId}" in the GitBook OpenAPI spec` +
        (similar.length ? ` (did you mean: ${similar.join(", ")}?)` : ""),
    );
  }
  return entry;
}

/** Follows a `$ref: "#/components/responses/X"` (possibly chained) to the response object. */
function derefResponse(
  spec: JsonObject,
  response: JsonObject,
  pointer: string[],
): { response: JsonObject; pointer: string[] } {
  let current = response;
  let currentPointer = pointer;
  for (let depth = 0; typeof current.$ref === "string" && depth < 10; depth++) {
    const ref = current.$ref;
    if (!ref.startsWith("#/")) throw new Error(`Unsupported response $ref "${ref}"`);
    const segments = ref
      .slice(2)
      .split("/")
      .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
    let target: unknown = spec;
    for (const segment of segments) target = isObject(target) ? target[segment] : undefined;
    if (!isObject(target)) throw new Error(`Unresolvable response $ref "${ref}"`);
    current = target;
    currentPointer = segments;
  }
  return { response: current, pointer: currentPointer };
}

function declaredStatuses(entry: SpecOperationEntry): string[] {
  return Object.keys(entry.responses);
}

/**
 * Picks the spec response entry for an actual HTTP status:
 *  - the exact status when declared;
 *  - 204 is also accepted (as "no body") when the operation declares 205;
 *  - an error status (>= 400) falls back to the `default` response when there is one;
 *  - anything else throws.
 */
function resolveResponse(entry: SpecOperationEntry, status: number): ResolvedResponse {
  const { spec } = loadState();
  const key = String(status);
  let declaredAs: string | undefined;
  if (key in entry.responses) declaredAs = key;
  else if (status === 204 && "205" in entry.responses) declaredAs = "205";
  else if (status >= 400 && "default" in entry.responses) declaredAs = "default";
  if (!declaredAs) {
    throw new Error(
      `${entry.operationId} (${entry.method} ${entry.path}): status ${status} is not declared by the spec ` +
        `(declared: ${declaredStatuses(entry).join(", ") || "none"})`,
    );
  }
  const raw = entry.responses[declaredAs];
  if (!isObject(raw)) throw new Error(`${entry.operationId}: malformed response entry for ${declaredAs}`);
  const { response, pointer } = derefResponse(spec, raw, [...entry.pointer, "responses", declaredAs]);
  const content = isObject(response.content) ? response.content : undefined;
  const media = content?.["application/json"];
  const jsonSchema = isObject(media) && isObject(media.schema) ? media.schema : undefined;
  return {
    declaredAs,
    content: content && Object.keys(content).length > 0 ? content : undefined,
    jsonSchemaPointer: jsonSchema ? [...pointer, "content", "application/json", "schema"] : undefined,
    jsonSchema,
  };
}

/** The spec method (upper-case) and path (relative to the `/v1` base, e.g. `/orgs/{organizationId}`). */
export function specOperation(operationId: string): { method: string; path: string } {
  const entry = getOperation(operationId);
  return { method: entry.method, path: entry.path };
}

/**
 * The JSON schema (as written in the spec, `$ref`s unresolved) of the `application/json` response of
 * `operationId` for `status`, or `undefined` when the spec declares no JSON body for it (e.g. 204/205,
 * or a `text/event-stream` response). Throws for an unknown operation or an undeclared status.
 */
export function responseSchemaFor(operationId: string, status: number): object | undefined {
  return resolveResponse(getOperation(operationId), status).jsonSchema;
}

function validatorFor(entry: SpecOperationEntry, status: number, resolved: ResolvedResponse): ValidateFunction {
  const st = loadState();
  const cacheKey = `${entry.operationId}:${status}`;
  let validate = st.validators.get(cacheKey);
  if (!validate) {
    const pointer = resolved.jsonSchemaPointer;
    if (!pointer) throw new Error(`${entry.operationId}: no JSON schema for status ${status}`);
    const ref = `${SPEC_ID}#/${pointer.map(escapePointerSegment).join("/")}`;
    try {
      validate = st.ajv.compile({ $ref: ref });
    } catch (error) {
      throw new Error(
        `${entry.operationId} (${entry.method} ${entry.path}) ${status}: failed to compile the spec response schema: ${
          (error as Error).message
        }`,
      );
    }
    st.validators.set(cacheKey, validate);
  }
  return validate;
}

function excerpt(value: unknown, max: number): string {
  let text: string;
  try {
    text = value === undefined ? "undefined" : JSON.stringify(value);
  } catch {
    text = String(value);
  }
  if (text === undefined) text = String(value);
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
}

function valueAt(body: unknown, instancePath: string): unknown {
  if (!instancePath) return body;
  let current: unknown = body;
  for (const raw of instancePath.slice(1).split("/")) {
    const segment = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(current)) current = current[Number(segment)];
    else if (isObject(current)) current = current[segment];
    else return undefined;
  }
  return current;
}

function formatError(error: ErrorObject, body: unknown): string {
  const where = error.instancePath || "(root)";
  let message = error.message ?? error.keyword;
  const params = error.params as Record<string, unknown>;
  if (error.keyword === "enum" && Array.isArray(params.allowedValues)) {
    message += ` (${params.allowedValues.map((v) => JSON.stringify(v)).join(", ")})`;
  } else if (error.keyword === "additionalProperties" && typeof params.additionalProperty === "string") {
    message += ` ('${params.additionalProperty}')`;
  } else if (error.keyword === "const" && "allowedValue" in params) {
    message += ` (${JSON.stringify(params.allowedValue)})`;
  }
  const got = error.keyword === "required" ? "" : ` — got ${excerpt(valueAt(body, error.instancePath), 80)}`;
  return `  - ${where}: ${message}${got}  [${error.schemaPath}]`;
}

function isEmptyBody(body: unknown): boolean {
  return body === undefined || body === null || body === "";
}

/**
 * Asserts that `body` (already JSON-parsed; `undefined`/`null`/`""` for an empty body) is a valid
 * response of `operationId` with HTTP `status` according to the GitBook OpenAPI spec.
 *
 * - The status must be declared for the operation (a 204 is also accepted where the spec declares 205;
 *   an error status may fall back to the `default` response).
 * - A response declaring no body (204/205/...) requires an empty body.
 * - A non-JSON response (`text/event-stream`) is not validated.
 * - Otherwise the body is validated against the `application/json` schema; failures throw an Error
 *   listing the ajv errors (instance path, message, offending value, schema path) plus a body excerpt.
 */
export function expectMatchesSpec(operationId: string, status: number, body: unknown): void {
  const entry = getOperation(operationId);
  const resolved = resolveResponse(entry, status);
  const label = `${operationId} (${entry.method} ${entry.path}) ${status}`;

  if (!resolved.content) {
    if (!isEmptyBody(body)) {
      throw new Error(
        `${label}: the spec declares no response body (status ${resolved.declaredAs}) but got ${excerpt(body, BODY_EXCERPT_CHARS)}`,
      );
    }
    return;
  }
  if (!resolved.jsonSchemaPointer) return; // non-JSON content (e.g. text/event-stream): not validated here.

  const validate = validatorFor(entry, status, resolved);
  if (validate(body)) return;

  const errors = validate.errors ?? [];
  const lines = errors.slice(0, MAX_ERRORS_SHOWN).map((e) => formatError(e, body));
  if (errors.length > MAX_ERRORS_SHOWN) lines.push(`  … and ${errors.length - MAX_ERRORS_SHOWN} more errors`);
  throw new Error(
    `${label}: response body does not match the spec schema (${errors.length} error${errors.length === 1 ? "" : "s"}):\n` +
      `${lines.join("\n")}\nBody: ${excerpt(body, BODY_EXCERPT_CHARS)}`,
  );
}

/**
 * Asserts that `value` is valid against the spec's component schema `name` (e.g. `JSONDocument`), for shapes
 * that are checked outside an HTTP response.
 */
export function expectMatchesSpecSchema(name: string, value: unknown): void {
  const st = loadState();
  const cacheKey = `#/components/schemas/${name}`;
  let validate = st.validators.get(cacheKey);
  if (!validate) {
    validate = st.ajv.compile({ $ref: `${SPEC_ID}#/components/schemas/${escapePointerSegment(name)}` });
    st.validators.set(cacheKey, validate);
  }
  if (validate(value)) return;
  const errors = validate.errors ?? [];
  const lines = errors.slice(0, MAX_ERRORS_SHOWN).map((e) => formatError(e, value));
  throw new Error(`${name}: value does not match the spec schema:\n${lines.join("\n")}`);
}
