import { createRequire } from "node:module";
import type { Context, Span } from "@opentelemetry/api";
import type { SpanExporter } from "@opentelemetry/sdk-trace-node";
import {
  type GraphQLFieldResolver,
  type GraphQLOutputType,
  type GraphQLSchema,
  getNamedType,
  getNullableType,
  getOperationAST,
  isIntrospectionType,
  isListType,
  isObjectType,
} from "graphql";
import { isAsyncIterable, type Plugin } from "graphql-yoga";

// OpenTelemetry's SDK, loaded by ./tracing.ts only when tracing is on. Every package is imported with `import()`:
// the bundle (scripts/build.mjs) leaves such packages in node_modules, so with tracing off none of them is read,
// and their instrumentations patch `pg` and `node:http` as Node loads them (patching works by hooking Node's module
// loading, which does not see what is bundled).

/** The attributes a span may carry (OpenTelemetry's primitive attribute values). */
export type SpanAttributes = Record<string, string | number | boolean>;

/** The tracing this module implements, used through ./tracing.ts. */
export interface Tracing {
  /** `linkedTo`: the W3C `traceparent` of the span that caused this work (the request that queued a job). */
  withSpan<T>(name: string, run: () => Promise<T>, attributes?: SpanAttributes, linkedTo?: string): Promise<T>;
  /** The W3C `traceparent` of the span in progress, if any: a job queued now is linked to it. */
  traceparent(): string | undefined;
  traceStatement<T>(text: string, run: () => Promise<T>): Promise<T>;
  /** Names the request's HTTP span after its route (and GraphQL operation), sets its `http.route`; its trace id. */
  requestTraceId(method: string, route: string, operation: string): string | undefined;
  /** Operation spans, and resolver spans for the fields that load data (see open-telemetry.ts). */
  graphqlPlugin: Plugin;
  /** Exports the spans still buffered, then stops. */
  shutdown(): Promise<void>;
}

export interface TracingSettings {
  serviceName: string;
  /**
   * Tests hand an in-memory exporter, which gets each span as it ends; by default spans go in batches to the
   * OTLP/HTTP endpoint of the OTEL_* variables.
   */
  exporter?: SpanExporter;
  /** Hears of spans that could not be exported (OpenTelemetry's own diagnostics at warn level and above). */
  warn(message: string): void;
}

/**
 * Query parameters whose values never reach a span (OpenTelemetry's `url.query` is to be redacted of credentials):
 * the instrumentation's own defaults (signed URLs), then ours: share keys, tokens and keys of any kind, and GraphQL's
 * GET parameters, whose document and variables may carry a share key. The request log leaves the query out entirely.
 */
const redactedQueryParams = [
  ...["sig", "Signature", "AWSAccessKeyId", "X-Goog-Signature", "X-Amz-Signature", "X-Amz-Credential"],
  "X-Amz-Security-Token",
  ...["shareKey", "sharekey", "share_key", "token", "access_token", "accessToken", "id_token", "jwt", "jwt_token"],
  ...["key", "apiKey", "api_key", "password", "secret", "code", "signature", "auth"],
  ...["query", "variables", "extensions"],
];

/** Requests for health and metrics: a load balancer's or a scraper's every few seconds, no trace worth keeping. */
const untracedPaths = new Set(["/livez", "/healthz", "/readyz", "/metrics"]);

/** Resolver spans are kept for fields that load data: root fields, lists and connections. */
function loadsData(schema: GraphQLSchema, typeName: string, type: GraphQLOutputType): boolean {
  if ([schema.getQueryType(), schema.getMutationType()].some((root) => root?.name === typeName)) return true;
  if (/(Connection|Edge|PageInfo)$/.test(typeName)) return false;
  return isListType(getNullableType(type)) || getNamedType(type).name.endsWith("Connection");
}

/** The keys of a field's place in the result, root first (`organization`, `sites`, `nodes`, `0`, `sections`). */
function responsePath(path: { prev: unknown; key: string | number } | undefined): string[] {
  const keys: string[] = [];
  for (let at = path; at; at = at.prev as typeof path) keys.push(String(at.key));
  return keys.reverse();
}

export async function startOpenTelemetry(settings: TracingSettings): Promise<Tracing> {
  const [
    api,
    { NodeTracerProvider, BatchSpanProcessor, SimpleSpanProcessor },
    { OTLPTraceExporter },
    { resourceFromAttributes },
  ] = await Promise.all([
    import("@opentelemetry/api"),
    import("@opentelemetry/sdk-trace-node"),
    import("@opentelemetry/exporter-trace-otlp-http"),
    import("@opentelemetry/resources"),
  ]);
  const [{ registerInstrumentations }, { HttpInstrumentation }, { PgInstrumentation }] = await Promise.all([
    import("@opentelemetry/instrumentation"),
    import("@opentelemetry/instrumentation-http"),
    import("@opentelemetry/instrumentation-pg"),
  ]);
  const { context, trace, propagation, SpanStatusCode, diag, DiagLogLevel } = api;
  const warn = (message: unknown, ...more: unknown[]) => settings.warn([message, ...more].map(String).join(" "));
  diag.setLogger({ error: warn, warn, info: () => {}, debug: () => {}, verbose: () => {} }, DiagLogLevel.WARN);

  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ "service.name": settings.serviceName }),
    // The OTLP exporter reads OTEL_EXPORTER_OTLP_ENDPOINT (and _HEADERS, _TIMEOUT, ...) itself, and gets spans in
    // batches (every 5 s, or 512 spans); an exporter handed in gets each span as it ends.
    spanProcessors: [
      settings.exporter ? new SimpleSpanProcessor(settings.exporter) : new BatchSpanProcessor(new OTLPTraceExporter()),
    ],
  });
  // The global tracer provider, W3C trace-context propagation and an AsyncLocalStorage context manager.
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      // No header is recorded but the user agent (`headersToSpanAttributes` stays unset): never `authorization`.
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => untracedPaths.has((request.url ?? "").split("?")[0] ?? ""),
        redactedQueryParamsServer: redactedQueryParams,
        redactedQueryParams,
      }),
      // A statement outside any request or job (the job engine's polls, every few seconds per worker; the LISTEN
      // connection; statistics) would be a trace of its own each time.
      new PgInstrumentation({ requireParentSpan: true }),
    ],
  });
  // The bundle imported node:http before tracing started: requiring it now lets the instrumentation patch it (the
  // server's request handling is patched on its prototype, which the bundle's import shares). `pg` is imported
  // only when a PostgreSQL database is opened, after this.
  createRequire(import.meta.url)("node:http");
  const tracer = provider.getTracer("docs-management-gateway");

  /** Ends `span` when `run` settles, recording its error. */
  function settle<T>(span: Span, run: () => T): T {
    const failed = (error: unknown) => {
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    };
    let result: T;
    try {
      result = run();
    } catch (error) {
      failed(error);
      throw error;
    }
    if (result instanceof Promise) {
      return result.then(
        (value) => {
          span.end();
          return value;
        },
        (error: unknown) => {
          failed(error);
          throw error;
        },
      ) as T;
    }
    span.end();
    return result;
  }

  /** The span context a `traceparent` names, as a link (none when it is not one). */
  function linkTo(traceparent: string | undefined) {
    if (!traceparent) return [];
    const linked = trace.getSpanContext(propagation.extract(context.active(), { traceparent }));
    return linked ? [{ context: linked }] : [];
  }

  function inSpan<T>(
    name: string,
    attributes: SpanAttributes | undefined,
    parent: Context,
    run: () => T,
    linkedTo?: string,
  ): T {
    const span = tracer.startSpan(name, { attributes, links: linkTo(linkedTo) }, parent);
    return context.with(trace.setSpan(parent, span), () => settle(span, run));
  }

  /** Per GraphQL request (its context object): the tracing context of each traced field by response path. */
  const fieldContexts = new WeakMap<object, Map<string, Context>>();
  const instrumented = new WeakSet<GraphQLSchema>();

  /** Wraps the resolvers of the fields that load data so that each call is a span under its nearest traced parent. */
  function instrumentResolvers(schema: GraphQLSchema) {
    if (instrumented.has(schema)) return;
    instrumented.add(schema);
    for (const type of Object.values(schema.getTypeMap())) {
      if (!isObjectType(type) || isIntrospectionType(type)) continue;
      for (const field of Object.values(type.getFields())) {
        const resolve = field.resolve;
        if (!resolve || !loadsData(schema, type.name, field.type)) continue;
        const name = `${type.name}.${field.name}`;
        const traced: GraphQLFieldResolver<unknown, object> = (source, args, graphqlContext, info) => {
          let contexts = fieldContexts.get(graphqlContext);
          if (!contexts) {
            contexts = new Map();
            fieldContexts.set(graphqlContext, contexts);
          }
          const keys = responsePath(info.path);
          let parent: Context | undefined;
          for (let length = keys.length - 1; length >= 0 && !parent; length--) {
            parent = contexts.get(keys.slice(0, length).join("."));
          }
          const span = tracer.startSpan(name, { attributes: { "graphql.field.path": keys.join(".") } }, parent);
          const spanContext = trace.setSpan(parent ?? context.active(), span);
          contexts.set(keys.join("."), spanContext);
          return context.with(spanContext, () => settle(span, () => resolve(source, args, graphqlContext, info)));
        };
        field.resolve = traced;
      }
    }
  }

  const graphqlPlugin: Plugin = {
    onSchemaChange({ schema }) {
      instrumentResolvers(schema);
    },
    onExecute({ args }) {
      const operation = getOperationAST(args.document, args.operationName);
      const kind = operation?.operation ?? "query";
      const operationName = operation?.name?.value ?? "anonymous";
      const span = tracer.startSpan(`${kind} ${operationName}`, {
        attributes: { "graphql.operation.type": kind, "graphql.operation.name": operationName },
      });
      // The root fields' parent: the operation (the empty response path).
      fieldContexts.set(args.contextValue, new Map([["", trace.setSpan(context.active(), span)]]));
      return {
        onExecuteDone({ result }) {
          if (isAsyncIterable(result)) return { onEnd: () => span.end() };
          if (result.errors?.length) span.setStatus({ code: SpanStatusCode.ERROR });
          span.end();
          return undefined;
        },
      };
    },
  };

  return {
    withSpan: (name, run, attributes, linkedTo) => inSpan(name, attributes, context.active(), run, linkedTo),
    traceparent() {
      const carrier: { traceparent?: string } = {};
      if (trace.getActiveSpan()) propagation.inject(context.active(), carrier);
      return carrier.traceparent;
    },
    traceStatement(text, run) {
      // As pg's instrumentation (requireParentSpan): only statements of a request or a job.
      if (!trace.getActiveSpan()) return run();
      const operation = /^\s*(\w+)/.exec(text)?.[1]?.toUpperCase() ?? "QUERY";
      const attributes = { "db.system.name": "postgresql", "db.query.text": text };
      return inSpan(`pglite.query:${operation}`, attributes, context.active(), run);
    },
    requestTraceId(method, route, operation) {
      const span = trace.getActiveSpan();
      if (span && route !== "unmatched") {
        span.updateName(route === "/graphql" && operation ? `${method} ${route} ${operation}` : `${method} ${route}`);
        span.setAttribute("http.route", route);
      }
      return span?.spanContext().traceId;
    },
    graphqlPlugin,
    shutdown: () => provider.shutdown(),
  };
}
