import { useDeferStream } from "@graphql-yoga/plugin-defer-stream";
import type { DocumentNode, ExecutionArgs, ExecutionResult, GraphQLError, GraphQLSchema } from "graphql";
import { createYoga, type GraphQLParams, isAsyncIterable, type PromiseOrValue } from "graphql-yoga";
import type { ReadRouting } from "../db/read-replicas.ts";
import type { Config } from "../platform/config.ts";
import { tracingPlugins } from "../platform/tracing.ts";
import type { RequestContext } from "../request/context.ts";
import { type CallContext, type CallRequest, callOf, type GraphQLCall, type LogUnexpected } from "../web/call.ts";
import { restError } from "../web/errors.ts";
import { markServerDocument } from "./cost-report.ts";
import { textKeyedCache } from "./document-caches.ts";
import { maskError } from "./errors.ts";
import {
  compiledExecution,
  type JitCacheEntry,
  maskedExecutionErrors,
  maskedRequestErrors,
  operationLabels,
} from "./execution-plugins.ts";
import { graphiqlSettings } from "./graphiql.ts";
import { jsonAnswers } from "./json-answers.ts";
import { graphqlLimitPlugins, maxBatchedOperations } from "./limits.ts";
import { multipartSubscriptions } from "./multipart-subscriptions.ts";
import { assertRepeatsCover, createRepeatedQueries } from "./repeated-queries.ts";
import { replicaReads } from "./replica-reads.ts";
import { retryAfterPlugin, retryAfterSeconds } from "./retry-after.ts";
import { hiddenSuggestions } from "./suggestions.ts";
import { trustedDocumentsPlugin } from "./trusted-documents.ts";

export interface GraphQLServerOptions {
  /** The built schema: the app assembles it from the modules (src/app/schema.ts). */
  schema: GraphQLSchema;
  config: Config;
  /** Where queries read (the primary, or replicas: src/graphql/replica-reads.ts). */
  reads: ReadRouting;
  createContext(call: CallContext): RequestContext & GraphQLCall;
  logUnexpected: LogUnexpected;
}

export interface GraphQLServer {
  /** Answers a request to `/graphql` (GET or POST, by text or by registered id) of an admitted call. */
  fetch(request: CallRequest): Promise<Response>;
  /**
   * Runs a server-side document (a REST route's) through the same envelop pipeline as `/graphql`: the same context,
   * limits and cost, compiled execution, error masking, labels and tracing.
   */
  execute(
    request: CallRequest,
    document: DocumentNode,
    variableValues: Record<string, unknown>,
  ): Promise<ExecutionResult>;
  /**
   * The pipeline of one operation sent over a WebSocket (src/http/graphql-websocket.ts): the same plugins as
   * `/graphql` (limits, cost, the subscription cap, masking, labels, tracing) around parse, validate, execute and
   * subscribe, with the context of the admitted call.
   */
  envelop(request: CallRequest, params: GraphQLParams): Enveloped;
  /** The bytes each document cache holds (a metric). */
  cacheBytes(): Record<string, number>;
  /** How many requests were answered as repeats (a metric). */
  repeatedQueries(): number;
  /** The Content-Security-Policy the GraphiQL page needs (its inline scripts' hashes). */
  graphiqlContentSecurityPolicy(): string;
  /** One of GraphiQL's files under `graphiqlAssetsPath` (Monaco's workers, the icon), or undefined. */
  graphiqlAsset(pathname: string): Promise<Response | undefined>;
}

/** One operation's envelop pipeline: its plugins around graphql-js's steps, and its context. */
export interface Enveloped {
  schema: GraphQLSchema;
  parse(source: string): DocumentNode;
  validate(schema: GraphQLSchema, document: DocumentNode): readonly GraphQLError[];
  contextFactory(): Promise<unknown>;
  execute(args: ExecutionArgs): PromiseOrValue<ExecutionResult | AsyncIterable<ExecutionResult>>;
  subscribe(args: ExecutionArgs): PromiseOrValue<ExecutionResult | AsyncIterable<ExecutionResult>>;
}

/** What yoga's server adapter is handed with each request: one object for all, the call being on the request. */
const noServerContext = {};

/** The one GraphQL execution pipeline: yoga and its plugins, shared by `/graphql` and the REST routes. */
export function createGraphQLServer({
  schema,
  config,
  reads,
  createContext,
  logUnexpected,
}: GraphQLServerOptions): GraphQLServer {
  const documentCacheOptions = {
    maxBytes: config.graphqlCacheBytes,
    maxTextBytes: config.graphqlCacheMaxDocumentBytes,
  };
  const parsedDocuments = textKeyedCache<DocumentNode>(documentCacheOptions);
  const parseErrors = textKeyedCache<object>(documentCacheOptions);
  const compiledOperations = textKeyedCache<JitCacheEntry>(documentCacheOptions);
  const graphiql = graphiqlSettings();
  const repeats = createRepeatedQueries(documentCacheOptions, retryAfterSeconds);
  const trustedDocuments = trustedDocumentsPlugin(config);
  const requestErrorMasking = maskedRequestErrors(logUnexpected);
  const retryAfter = retryAfterPlugin();
  const answers = jsonAnswers();
  const subscriptionParts = multipartSubscriptions();
  const plugins = [
    // First: it sees each request's parameters as sent, and answers repeats before yoga's HTTP layer.
    repeats.plugin,
    trustedDocuments,
    useDeferStream(),
    ...graphqlLimitPlugins(config),
    ...(config.environment === "development" ? [] : [hiddenSuggestions()]),
    compiledExecution(compiledOperations, config.graphqlCacheMaxDocumentBytes),
    replicaReads(reads),
    operationLabels,
    maskedExecutionErrors(logUnexpected),
    requestErrorMasking,
    ...tracingPlugins(),
    retryAfter,
    answers,
    subscriptionParts,
  ];
  assertRepeatsCover(
    plugins,
    new Set([
      repeats.plugin,
      // Only queries that ran once without errors are repeated: a registered id or a text it allowed then.
      trustedDocuments,
      // It masks errors raised before execution: a repeat's document has parsed and validated before.
      requestErrorMasking,
      // Repeats set Retry-After with the same function.
      retryAfter,
      // Repeats answer through the same processor.
      answers,
      // It answers subscriptions only; repeats answer queries.
      subscriptionParts,
    ]),
  );

  const yoga = createYoga({
    schema,
    graphqlEndpoint: "/graphql",
    landingPage: false,
    logging: false,
    graphiql: graphiql.options,
    // The GraphiQL page carries its scripts (no CDN): it works offline and behind strict networks.
    renderGraphiQL: graphiql.page.render,
    // CORS is ours (src/http/cors.ts), the same for /graphql and /v1: yoga's default would allow every origin.
    cors: false,
    // The call travels on the request (CallRequest in src/web/call.ts says why), not in a server context.
    context: ({ request }) => createContext(callOf(request)),
    // Bounded by the bytes of the texts they hold (src/graphql/document-caches.ts), not by their entries.
    parserAndValidationCache: { documentCache: parsedDocuments, errorCache: parseErrors },
    batching: { limit: maxBatchedOperations },
    // The guard has read the whole body within MAX_BODY_BYTES already; yoga's own limit would stream it through a
    // TransformStream again (an AbortSignal and a DOMException per request).
    maxRequestBodySize: false,
    // GraphQL over HTTP's persisted documents: `{ documentId, variables }` (src/graphql/trusted-documents.ts).
    extraParamNames: ["documentId"],
    plugins,
    // The safety net for errors outside execution (they carry no request id).
    maskedErrors: { maskError: (error) => maskError(error, "", logUnexpected("")) },
  });

  return {
    async fetch(request) {
      const response = await yoga.handleRequest(request, noServerContext);
      // yoga's 406 has no body: a client that accepts only JSON asked for an answer in parts.
      if (response.status !== 406) return response;
      return restError(
        "NOT_ACCEPTABLE",
        "The Accept header allows no type this answer can take: application/json, or multipart/mixed or " +
          "text/event-stream for operations with @defer or @stream, text/event-stream or " +
          "multipart/mixed;subscriptionSpec=1.0 for subscriptions",
      );
    },
    async execute(request, document, variableValues) {
      const enveloped = yoga.getEnveloped({ request, params: {} });
      const contextValue = await enveloped.contextFactory();
      markServerDocument(contextValue);
      const result = await enveloped.execute({ schema: enveloped.schema, document, variableValues, contextValue });
      if (isAsyncIterable(result)) throw new Error("A server-side document asked for an incremental answer");
      return result;
    },
    envelop: (request, params) => yoga.getEnveloped({ request, params }) as Enveloped,
    cacheBytes: () => ({
      graphql_documents: parsedDocuments.bytes(),
      graphql_parse_errors: parseErrors.bytes(),
      graphql_compiled: compiledOperations.bytes(),
      graphql_repeated_queries: repeats.bytes(),
    }),
    repeatedQueries: repeats.answered,
    graphiqlContentSecurityPolicy: () => graphiql.page.contentSecurityPolicy(),
    graphiqlAsset: (pathname) => graphiql.page.asset(pathname),
  };
}
