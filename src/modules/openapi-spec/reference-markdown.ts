/**
 * Renders a processed OpenAPI document (dereferenced, Swagger 2.0 or OpenAPI 3.x) as the markdown of an API
 * reference page: operations grouped by tag, each with a method and path heading, its parameters, request body
 * and responses.
 */

type Json = Record<string, unknown>;

const methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

/** Operations without a tag are listed under this one. */
const untaggedOperations = "default";

interface Operation {
  method: string;
  path: string;
  tags: string[];
  operation: Json;
  pathParameters: unknown[];
}

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const text = (value: unknown): string => (typeof value === "string" ? value : "");

/** One line of a table cell: pipes escaped, line breaks flattened. */
const cell = (value: string) => value.replace(/\r?\n/g, " ").replace(/\|/g, "\\|").trim();

function operationsOf(document: Json): Operation[] {
  const out: Operation[] = [];
  const paths = isObject(document.paths) ? document.paths : {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    const pathParameters = Array.isArray(item.parameters) ? item.parameters : [];
    for (const method of methods) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      const tags = Array.isArray(operation.tags) ? operation.tags.filter((tag) => typeof tag === "string") : [];
      out.push({ method, path, operation, pathParameters, tags: tags.length > 0 ? tags : [untaggedOperations] });
    }
  }
  return out;
}

/** A short type for a schema: `string`, `integer (int64)`, `array of Pet`, `object`. */
function typeOf(schema: unknown): string {
  if (!isObject(schema)) return "";
  if (schema.type === "array") return `array of ${typeOf(schema.items) || "any"}`;
  const type = Array.isArray(schema.type) ? schema.type.join(" or ") : text(schema.type);
  const named = type || text(schema.title) || (isObject(schema.properties) ? "object" : "");
  return schema.format ? `${named} (${text(schema.format)})` : named;
}

/** A titled markdown table; nothing when there are no rows. */
function table(title: string, headers: string[], rows: string[][]): string[] {
  if (rows.length === 0) return [];
  const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
  return [`**${title}**`, "", line(headers), line(headers.map(() => "---")), ...rows.map(line), ""];
}

function renderParameters(parameters: unknown[]): string[] {
  const rows = parameters.filter(isObject).filter((parameter) => parameter.in !== "body");
  return table(
    "Parameters",
    ["Name", "In", "Type", "Required", "Description"],
    rows.map((parameter) => [
      cell(text(parameter.name)),
      cell(text(parameter.in)),
      cell(typeOf(parameter.schema ?? parameter)),
      parameter.required === true ? "yes" : "no",
      cell(text(parameter.description)),
    ]),
  );
}

function renderRequestBody(operation: Json, parameters: unknown[]): string[] {
  const body = operation.requestBody;
  if (isObject(body)) {
    const content = isObject(body.content) ? body.content : {};
    return [
      "**Request body**",
      "",
      ...(text(body.description) ? [text(body.description), ""] : []),
      ...Object.entries(content).map(
        ([mediaType, media]) => `- \`${mediaType}\`: ${typeOf(isObject(media) ? media.schema : undefined) || "any"}`,
      ),
      "",
    ];
  }
  // Swagger 2.0 carries the body as an `in: body` parameter.
  const bodyParameter = parameters.filter(isObject).find((parameter) => parameter.in === "body");
  if (!bodyParameter) return [];
  return ["**Request body**", "", `- ${typeOf(bodyParameter.schema) || "any"}`, ""];
}

function renderResponses(operation: Json): string[] {
  const responses = isObject(operation.responses) ? Object.entries(operation.responses) : [];
  return table(
    "Responses",
    ["Status", "Description"],
    responses.map(([status, response]) => [cell(status), cell(text(isObject(response) ? response.description : ""))]),
  );
}

function renderOperation({ method, path, operation, pathParameters }: Operation): string[] {
  const parameters = [...pathParameters, ...(Array.isArray(operation.parameters) ? operation.parameters : [])];
  const summary = text(operation.summary);
  const description = text(operation.description);
  return [
    `### ${method.toUpperCase()} ${path}`,
    "",
    ...(summary ? [summary, ""] : []),
    ...(description ? [description, ""] : []),
    ...renderParameters(parameters),
    ...renderRequestBody(operation, parameters),
    ...renderResponses(operation),
  ];
}

/**
 * The markdown of the operations of one tag (`page`), or of every tag (`*`), in the document's tag order (tags it
 * declares first, then the others as operations name them).
 */
export function renderOperationsMarkdown(document: unknown, page: string): string {
  if (!isObject(document)) return "";
  const operations = operationsOf(document);
  const declared = Array.isArray(document.tags) ? document.tags.filter(isObject) : [];
  const tagOrder = [
    ...new Set([...declared.map((tag) => text(tag.name)), ...operations.flatMap((operation) => operation.tags)]),
  ].filter((tag) => tag && (page === "*" || tag === page));
  const lines: string[] = [];
  for (const tag of tagOrder) {
    const tagged = operations.filter((operation) => operation.tags.includes(tag));
    if (tagged.length === 0) continue;
    const description = text(declared.find((declaredTag) => declaredTag.name === tag)?.description);
    lines.push(`## ${tag}`, "", ...(description ? [description, ""] : []));
    for (const operation of tagged) lines.push(...renderOperation(operation));
  }
  return lines.join("\n").trim();
}
