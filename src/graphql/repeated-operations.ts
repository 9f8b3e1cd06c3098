import { type DocumentNode, type GraphQLError, type GraphQLSchema, getOperationAST } from "graphql";
import { type CompiledQuery, compileQuery, isCompiledQuery } from "graphql-jit";
import { isAsyncIterable, type Plugin, type YogaInitialContext } from "graphql-yoga";
import type { RequestContext } from "../context.ts";
import { jsonResponse } from "../http/json-response.ts";
import { withSpan } from "../ops/tracing.ts";
import { withCostReport } from "./cost-report.ts";
import { usesIncrementalDelivery } from "./defer-stream.ts";
import { type DocumentCacheOptions, textKeyedCache } from "./document-caches.ts";
import { refusal } from "./limits.ts";
import { operationLabel } from "./operation-label.ts";

/**
 * Front ends send the same few queries over and over (codegen documents, or their registered ids). Once yoga has run
 * one to a result without errors, its parsing, validation, limits and trusted-documents rules have all passed for
 * that text, so a repeat skips yoga (its HTTP layer: parameter parsing, content negotiation, result processing; and
 * envelop's plugin pipeline: together about 40% of a small read's CPU) and runs the operation's graphql-jit code
 * directly, doing what the execution plugins would do to its result: the limits' checks, which also charge the
 * cost (src/graphql/limits.ts), the masking of its errors, the cost report, the metrics' operation label.
 * Only queries qualify. A repeat that a check refuses, or whose variables the compiled code refuses, has run no
 * resolver and is answered by yoga from the start; a repeat that ran is answered as it ran, errors included: run
 * again through yoga it would cost its statements twice.
 */

/** The request fields a repeat may carry: anything else (extensions, a batch) goes through yoga. */
interface RepeatParams {
  query?: string;
  documentId?: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
}

/**
 * Queries admitted, least recently used forgotten first (and answered by yoga again until admitted anew) past this
 * many or past the cache's byte budget (src/graphql/document-caches.ts). Each holds its compiled code, beside the
 * copy graphql-jit's plugin keeps for the document while yoga's parse cache holds it: front ends send a few dozen
 * distinct queries.
 */
const maxAdmitted = 250;

const regularMediaTypes = ["application/graphql-response+json", "application/json"];

/**
 * The media type yoga's result processors would answer a single result with, or undefined when it would not use a
 * plain JSON body: the last match over the Accept header's types (utf-8 only) and the processors' types, as yoga
 * (its `useResultProcessors`) settles it.
 */
function regularMediaType(accept: string | null): string | undefined {
  let chosen: string | undefined;
  const asked = (accept || "*/*").replace(/\s/g, "").toLowerCase().split(",").reverse();
  for (const entry of asked) {
    const [mediaType = "", ...parameters] = entry.split(";");
    const charset = parameters.find((parameter) => parameter.includes("charset=")) ?? "charset=utf-8";
    if (charset !== "charset=utf-8") continue;
    const [askedType, askedSubtype] = mediaType.split("/");
    for (const candidate of regularMediaTypes) {
      const [type, subtype] = candidate.split("/");
      if ((askedType === "*" || askedType === type) && (askedSubtype === "*" || askedSubtype === subtype)) {
        chosen = candidate;
      }
    }
  }
  return chosen;
}

const repeatKeys = new Set(["query", "documentId", "variables", "operationName"]);

/** The fields of a request body a repeat may have; undefined for any other body. */
function repeatParams(body: unknown): RepeatParams | undefined {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
  const params = body as Record<string, unknown>;
  for (const [key, value] of Object.entries(params)) if (value !== undefined && !repeatKeys.has(key)) return undefined;
  const { query, documentId, variables, operationName } = params;
  if (query !== undefined && typeof query !== "string") return undefined;
  if (documentId !== undefined && typeof documentId !== "string") return undefined;
  if (variables != null && (typeof variables !== "object" || Array.isArray(variables))) return undefined;
  if (operationName != null && typeof operationName !== "string") return undefined;
  return params as RepeatParams;
}

/**
 * What a query is known by: its registered id when it was sent by id (yoga's persisted-documents plugin fills in
 * `query` from it), else its text; and the operation it runs.
 */
function keyOf({ query, documentId, operationName }: RepeatParams): string | undefined {
  const document = documentId !== undefined ? `id:${documentId}` : query !== undefined ? `query:${query}` : undefined;
  return document && `${document}\n${operationName ?? ""}`;
}

/** An admitted query: its document as yoga parsed it, the operation run, and that operation's compiled code. */
interface Admitted {
  document: DocumentNode;
  operationName: string | undefined;
  /** The metrics' label for the operation (`operationLabel`). */
  label: string;
  compiled: CompiledQuery | undefined;
}

/** What a repeat runs with: the request's context, the labels its metrics carry, and how its errors are masked. */
interface RepeatCall {
  context: RequestContext;
  labels: { operation: string };
  mask(error: GraphQLError): GraphQLError;
}

export interface RepeatedOperations {
  /** Admits each query yoga ran to a result without errors. */
  plugin: Plugin<RequestContext>;
  /**
   * The answer to a repeat of an admitted query, or undefined when yoga must answer (not a repeat, another content
   * type or Accept, or refused before it ran). `body` is the request's raw JSON.
   */
  answer(request: Request, body: Uint8Array | undefined, call: () => RepeatCall): Promise<Response | undefined>;
  /** How many requests were answered this way (a metric). */
  answered(): number;
  /** The text the admitted queries hold (a metric). */
  bytes(): number;
}

export function createRepeatedOperations(
  schema: GraphQLSchema,
  cacheOptions: DocumentCacheOptions,
): RepeatedOperations {
  const admitted = textKeyedCache<Admitted>({ ...cacheOptions, maxEntries: maxAdmitted });
  let answeredCount = 0;

  // The request's parameters as sent (before the persisted-documents plugin swaps an id for its text); null for a
  // batch, whose operations are never admitted.
  const sentParams = new WeakMap<Request, RepeatParams | null>();
  const plugin: Plugin<RequestContext & YogaInitialContext> = {
    onParams({ params, request }) {
      sentParams.set(request, sentParams.has(request) ? null : (repeatParams(params) ?? null));
    },
    onExecute({ args }) {
      const params = sentParams.get(args.contextValue.request);
      const key = params && keyOf(params);
      const operation = getOperationAST(args.document, args.operationName);
      if (!key || operation?.operation !== "query" || usesIncrementalDelivery(args.document)) return;
      return {
        onExecuteDone({ result }) {
          if (isAsyncIterable(result) || result.errors?.length) return;
          const operationName = args.operationName ?? undefined;
          admitted.set(key, {
            document: args.document,
            operationName,
            label: operationLabel(operation),
            compiled: undefined,
          });
        },
      };
    },
  };

  /** What graphql-jit's envelop plugin compiles for the same document and operation (with its default options). */
  const compiled = ({ document, operationName }: Admitted): CompiledQuery => {
    const result = compileQuery(schema, document, operationName);
    if (!isCompiledQuery(result)) throw new Error(result.errors?.map((error) => error.message).join("; "));
    return result;
  };

  return {
    plugin: plugin as Plugin<RequestContext>,
    answered: () => answeredCount,
    bytes: admitted.bytes,
    async answer(request, body, call) {
      if (request.method !== "POST" || !body) return undefined;
      if (!request.headers.get("content-type")?.toLowerCase().startsWith("application/json")) return undefined;
      const mediaType = regularMediaType(request.headers.get("accept"));
      if (!mediaType) return undefined;
      let params: RepeatParams | undefined;
      try {
        params = repeatParams(JSON.parse(Buffer.from(body).toString("utf8")));
      } catch {
        return undefined;
      }
      // A body with both or neither is yoga's to refuse.
      if (!params || (params.query === undefined) === (params.documentId === undefined)) return undefined;
      const key = keyOf(params);
      const entry = key && admitted.get(key);
      if (!entry) return undefined;
      const variables = params.variables ?? {};
      const { context, labels, mask } = call();
      const { document, operationName } = entry;
      if (refusal({ schema, document, variableValues: variables, operationName, contextValue: context })) {
        return undefined;
      }
      labels.operation = entry.label;
      entry.compiled ??= compiled(entry);
      const query = entry.compiled.query;
      // With tracing on, the operation's span, as yoga's path has one (src/ops/open-telemetry.ts).
      const result = await withSpan(`query ${entry.label}`, async () => query(undefined, context, variables));
      // No `data`: its variables were refused before any resolver ran; yoga answers that with its own status.
      if (!("data" in result)) return undefined;
      answeredCount++;
      // With `data`, yoga answers 200 whatever the errors (none of ours sets an HTTP status), and so does a repeat.
      const masked = result.errors?.length ? { ...result, errors: result.errors.map(mask) } : result;
      return jsonResponse(withCostReport(masked, context), { contentType: `${mediaType}; charset=utf-8` });
    },
  };
}
