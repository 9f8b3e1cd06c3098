export interface ProcessingProblem {
  message: string;
  code: string;
}

/** The source is not an OpenAPI document we can serve: the problems say why, for `lastProcessedErrors`. */
export class SpecParseError extends Error {
  constructor(readonly problems: ProcessingProblem[]) {
    super(problems.map((problem) => problem.message).join("; "));
  }
}

const maxProblems = 20;

interface ValidationDetail {
  instancePath?: string;
  path?: string;
  message?: string;
}

function problemsOf(error: unknown): ProcessingProblem[] {
  const details = (error as { details?: ValidationDetail[] }).details;
  if (Array.isArray(details) && details.length > 0) {
    return details.slice(0, maxProblems).map((detail) => ({
      message: `${detail.instancePath || detail.path || "/"}: ${detail.message ?? "is invalid"}`,
      code: "INVALID_SPEC",
    }));
  }
  const message = error instanceof Error ? error.message : String(error);
  return message
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean)
    .slice(0, maxProblems)
    .map((line) => ({ message: line, code: "INVALID_SPEC" }));
}

/**
 * Parses JSON or YAML (YAML 1.2 is a superset of JSON) and validates the document as Swagger 2.0, OpenAPI 3.0 or
 * 3.1, dereferencing its `$ref`s on the way so a dangling reference is an error. External references are not
 * followed: they would be fetches to addresses nobody checked.
 */
export async function parseOpenApiDocument(text: string): Promise<Record<string, unknown>> {
  // Loaded on the first spec processed: the parser and its validators are large and most processes never need them.
  const [{ parse: parseYaml }, { default: SwaggerParser }] = await Promise.all([
    import("yaml"),
    import("@apidevtools/swagger-parser"),
  ]);
  let document: unknown;
  try {
    // A low alias limit refuses "billion laughs" documents.
    document = parseYaml(text, { maxAliasCount: 1000, prettyErrors: false });
  } catch (error) {
    throw new SpecParseError([{ message: `Not JSON or YAML: ${(error as Error).message}`, code: "SYNTAX" }]);
  }
  if (typeof document !== "object" || document === null || Array.isArray(document)) {
    throw new SpecParseError([{ message: "The document is not an object", code: "SYNTAX" }]);
  }
  const record = document as Record<string, unknown>;
  if (!("openapi" in record) && !("swagger" in record)) {
    throw new SpecParseError([
      { message: "The document has neither an `openapi` nor a `swagger` version field", code: "INVALID_SPEC" },
    ]);
  }
  try {
    // validate() dereferences in place: give it a copy, the stored document keeps its $refs.
    await SwaggerParser.validate(structuredClone(record) as never, {
      resolve: { external: false },
      dereference: { circular: "ignore" },
    });
  } catch (error) {
    throw new SpecParseError(problemsOf(error));
  }
  return record;
}
