import { type JITCache, useGraphQlJit } from "@envelop/graphql-jit";
import { type DocumentNode, getOperationAST, Kind } from "graphql";
import { handleStreamOrSingleExecutionResult, isAsyncIterable, type Plugin } from "graphql-yoga";
import type { RequestContext } from "../request/context.ts";
import { callOf, type GraphQLCall, type LogUnexpected } from "../web/call.ts";
import { usesIncrementalDelivery } from "./defer-stream.ts";
import type { TextKeyedCache } from "./document-caches.ts";
import { maskError, maskIncrementalPayload } from "./errors.ts";
import { operationLabel } from "./operation-label.ts";

/** What graphql-jit's plugin keeps per document text. */
export type JitCacheEntry = Parameters<JITCache["set"]>[1];

/** Whether graphql-jit runs the document's operation, per parsed document (the parse cache reuses them). */
const compilable = new WeakMap<DocumentNode, boolean>();

/**
 * Compiles each operation once into a JavaScript function: the nested reads resolve thousands of fields.
 * Subscriptions run on graphql-js: graphql-jit's subscribe misreads arguments that are literals or variables of other
 * names (they reached the resolver as undefined). graphql-jit knows no @defer/@stream either: those operations run on
 * yoga's executor, which delivers them incrementally. The plugin keeps one compiled operation per document, whichever
 * operation name came first: a document of several operations runs on graphql-js, which runs the one each request
 * names. A text larger than the caches keep (GRAPHQL_CACHE_MAX_DOCUMENT_BYTES) runs on graphql-js too: compiled, its
 * names (a megabyte-long alias) would be copied into generated source several times, compiled by V8 for one run.
 */
export function compiledExecution(cache: TextKeyedCache<JitCacheEntry>, maxTextBytes: number): Plugin {
  return useGraphQlJit(
    {},
    {
      enableIf: ({ document, operationName }) => {
        let enabled = compilable.get(document);
        if (enabled === undefined) {
          const operations = document.definitions.filter((definition) => definition.kind === Kind.OPERATION_DEFINITION);
          enabled =
            (document.loc?.source.body.length ?? 0) <= maxTextBytes &&
            operations.length === 1 &&
            getOperationAST(document, operationName)?.operation !== "subscription" &&
            !usesIncrementalDelivery(document);
          compilable.set(document, enabled);
        }
        return enabled;
      },
      cache,
    },
  ) as Plugin;
}

/**
 * The operation name labels the request's metrics (the route alone would lump every GraphQL call together). A REST
 * route has labelled its request with its public operation id already, which stays.
 */
export const operationLabels: Plugin<RequestContext & GraphQLCall> = {
  onExecute({ args }) {
    const { labels } = args.contextValue.call;
    labels.operation ||= operationLabel(getOperationAST(args.document, args.operationName));
  },
};

/**
 * Errors of an execution are masked where the request id is known, and logged with it: the whole result, or each
 * part of a @defer/@stream response as it goes. Every caller of the pipeline (yoga, the REST routes) gets them masked.
 */
export function maskedExecutionErrors(logUnexpected: LogUnexpected): Plugin<RequestContext> {
  return {
    onExecute: ({ args }) => ({
      onExecuteDone: (payload) => {
        const { requestId } = args.contextValue;
        const log = logUnexpected(requestId);
        return handleStreamOrSingleExecutionResult(payload, ({ result, setResult }) => {
          if (isAsyncIterable(payload.result)) setResult(maskIncrementalPayload(result, requestId, log));
          else if (result.errors?.length) {
            setResult({ ...result, errors: result.errors.map((error) => maskError(error, requestId, log)) });
          }
        });
      },
    }),
  };
}

/**
 * Errors that arose before execution (parsing, validation) reach the client through yoga alone: masked here with the
 * request id too, so each carries `extensions.code`. Errors masked during execution pass through unchanged.
 */
export function maskedRequestErrors(logUnexpected: LogUnexpected): Plugin<RequestContext> {
  return {
    onExecutionResult({ result, setResult, request }) {
      if (!result || !("errors" in result) || !result.errors?.length) return;
      // From the request: an error raised before execution comes before the context is built.
      const { requestId } = callOf(request);
      const log = logUnexpected(requestId);
      setResult({ ...result, errors: result.errors.map((error) => maskError(error, requestId, log)) });
    },
  };
}
