import { getOperationAST } from "graphql";
import {
  isAsyncIterable,
  type Plugin,
  shouldRenderGraphiQL,
  type YogaInitialContext,
  type YogaServerInstance,
} from "graphql-yoga";
import { usesIncrementalDelivery } from "./defer-stream.ts";
import { type DocumentCacheOptions, textKeyedCache } from "./document-caches.ts";
import { answerResult, createMediaTypes } from "./json-answers.ts";

/**
 * Front ends send the same few queries over and over (codegen documents, or their registered ids). yoga's HTTP layer
 * (parameter parsing and checks, content negotiation, result processing) cost as much CPU as the whole envelop
 * pipeline on a small read. Once yoga has run a query to a result without errors, that text has passed everything the
 * HTTP layer checks, so this plugin answers its repeats from yoga's `onRequest` hook: it parses the few parameters a
 * repeat may carry and runs the query through the same envelop pipeline (`getEnveloped`: parse and validation with
 * their caches and plugins, the context, every execution plugin: limits and cost, graphql-jit, labels, masking,
 * tracing), then answers as yoga's answers are processed (`answerResult`). What it leaves out are yoga-level hooks
 * (`onRequestParse`, `onParams`, `onExecutionResult`, `onResultProcess`, `onResponse`): every plugin beside it that
 * has one must be declared with how repeats cover it, or the pipeline refuses to start (`assertRepeatsCover`).
 */

/** The request fields a repeat may carry: anything else (extensions, a batch) goes through yoga's HTTP layer. */
interface RepeatParams {
  query?: string;
  documentId?: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
}

/** The hooks of yoga's HTTP layer (and of the server adapter's) that a repeat does not run. */
const skippedHooks = ["onRequestParse", "onParams", "onExecutionResult", "onResultProcess", "onRequest", "onResponse"];

/**
 * Refuses a pipeline in which a plugin has a hook that repeats skip, unless `covered` names it (with how repeats
 * cover it, beside the plugin in src/graphql/server.ts): a plugin added later must not silently miss repeats.
 */
export function assertRepeatsCover(plugins: readonly object[], covered: ReadonlySet<object>): void {
  for (const plugin of plugins) {
    const hooks = skippedHooks.filter((hook) => hook in plugin);
    if (hooks.length > 0 && !covered.has(plugin)) {
      throw new Error(
        `A GraphQL plugin has ${hooks.join(", ")}, which repeated queries skip (src/graphql/repeated-queries.ts): ` +
          "declare how repeats cover it, or make it an envelop hook",
      );
    }
  }
}

const repeatKeys = new Set(["query", "documentId", "variables", "operationName"]);

/** The fields of request parameters a repeat may have; undefined for anything else. */
function repeatParams(sent: unknown): RepeatParams | undefined {
  if (typeof sent !== "object" || sent === null || Array.isArray(sent)) return undefined;
  const params = sent as Record<string, unknown>;
  for (const [key, value] of Object.entries(params)) if (value != null && !repeatKeys.has(key)) return undefined;
  const { query, documentId, variables, operationName } = params;
  // Both or neither: yoga's to refuse.
  if ((typeof query === "string") === (typeof documentId === "string")) return undefined;
  if (query != null && typeof query !== "string") return undefined;
  if (documentId != null && typeof documentId !== "string") return undefined;
  if (variables != null && (typeof variables !== "object" || Array.isArray(variables))) return undefined;
  if (operationName != null && typeof operationName !== "string") return undefined;
  return params as RepeatParams;
}

/** What a query is known by: its registered id when it was sent by id, else its text; and the operation run. */
function keyOf({ query, documentId, operationName }: RepeatParams): string {
  const document = documentId != null ? `id:${documentId.replace(/^sha256:/, "")}` : `query:${query}`;
  return `${document}\n${operationName ?? ""}`;
}

/** A GET's parameters from its query string; undefined when one is malformed (yoga answers that). */
function searchParams(url: URL): Record<string, unknown> | undefined {
  const params: Record<string, unknown> = {};
  for (const [name, value] of url.searchParams) params[name] = value;
  if (typeof params.variables === "string") {
    try {
      params.variables = JSON.parse(params.variables);
    } catch {
      return undefined;
    }
  }
  return params;
}

async function sentParams(request: Request, url: () => URL): Promise<RepeatParams | undefined> {
  if (request.method === "GET") {
    // A browser asking for the page gets GraphiQL from yoga.
    if (shouldRenderGraphiQL(request)) return undefined;
    const params = searchParams(url());
    return params && repeatParams(params);
  }
  if (request.method !== "POST") return undefined;
  const type = request.headers.get("content-type")?.toLowerCase() ?? "";
  if (type !== "application/json" && !type.startsWith("application/json;")) return undefined;
  try {
    // The fetch ponyfill keeps the parsed body: yoga reads the same object when the request is not a repeat.
    return repeatParams(await request.json());
  } catch {
    return undefined;
  }
}

/**
 * How an admitted query is run again: the registered text for one sent by id; none for one sent by text, whose key
 * holds it already (the repeat brings it again).
 */
interface Admitted {
  registeredText: string | undefined;
}

export interface RepeatedQueries {
  plugin: Plugin;
  /** How many requests were answered as repeats (a metric). */
  answered(): number;
  /** The text the admitted queries hold (a metric). */
  bytes(): number;
}

/**
 * Queries admitted, least recently used forgotten first (and answered by yoga's HTTP layer again until admitted anew)
 * past this many or past the caches' byte budget: front ends send a few dozen distinct queries.
 */
const maxAdmitted = 250;

/** `retryAfter`: the seconds a result's errors ask the client to wait, as the Retry-After plugin sets them. */
export function createRepeatedQueries(
  cacheOptions: DocumentCacheOptions,
  retryAfter: (result: unknown) => number | undefined,
): RepeatedQueries {
  const admitted = textKeyedCache<Admitted>({ ...cacheOptions, maxEntries: maxAdmitted });
  let answered = 0;
  const mediaTypes = createMediaTypes();
  let yoga: YogaServerInstance<Record<string, unknown>, Record<string, unknown>> | undefined;
  // The parameters as sent (before the persisted-documents plugin swaps an id for its text); null for a batch, whose
  // operations are never admitted.
  const sent = new WeakMap<Request, RepeatParams | null>();
  // The key of a request's query while it runs, once the operation is known to be a plain query.
  const running = new WeakMap<Request, { key: string; byId: boolean }>();

  const plugin: Plugin<YogaInitialContext> = {
    onYogaInit({ yoga: instance }) {
      yoga = instance as never;
    },
    async onRequest({ request, url, serverContext, fetchAPI, endResponse }) {
      // The app sends yoga requests to its endpoint alone (src/app/routes.ts).
      if (!yoga) return;
      const mediaType = mediaTypes.of(request.headers.get("accept"));
      if (!mediaType) return;
      // yoga's URL is parsed on first use: a POST's parameters are in its body.
      const params = await sentParams(request, () => url);
      const entry = params && admitted.get(keyOf(params));
      const text = params?.query ?? entry?.registeredText;
      if (!params || !entry || text === undefined) return;
      const { variables, operationName } = params;
      const { waitUntil } = serverContext as Pick<YogaInitialContext, "waitUntil">;
      // Field by field: a spread's clone of the context outlived young collections (docs/performance.md). The call
      // travels on the request (src/web/call.ts).
      const enveloped = yoga.getEnveloped({
        waitUntil,
        request,
        params: { query: text, variables: variables ?? undefined, operationName: operationName ?? undefined },
      });
      const document = enveloped.parse(text);
      // Validation is cached per document: an admitted text validates, unless the parse cache forgot it meanwhile
      // and this parse failed (then yoga answers, as nothing has run).
      if (enveloped.validate(enveloped.schema, document).length > 0) return;
      const contextValue = await enveloped.contextFactory();
      const result = await enveloped.execute({
        schema: enveloped.schema,
        document,
        operationName: operationName ?? undefined,
        variableValues: variables ?? undefined,
        contextValue,
      });
      answered++;
      const response = await answerResult(result, fetchAPI, mediaType);
      const seconds = retryAfter(result);
      if (seconds !== undefined) response.headers.set("Retry-After", String(seconds));
      endResponse(response);
    },
    onParams({ params, request }) {
      sent.set(request, sent.has(request) ? null : (repeatParams(params) ?? null));
    },
    onExecute({ args }) {
      const request = (args.contextValue as Partial<YogaInitialContext>).request;
      const params = request && sent.get(request);
      const operation = getOperationAST(args.document, args.operationName);
      if (!request || !params || operation?.operation !== "query" || usesIncrementalDelivery(args.document)) return;
      running.set(request, { key: keyOf(params), byId: params.documentId != null });
    },
    onExecutionResult({ request, result, context }) {
      const query = running.get(request);
      const text = (context as Partial<YogaInitialContext>).params?.query;
      if (!query || typeof text !== "string" || !result || isAsyncIterable(result)) return;
      if (Array.isArray(result) || result.errors?.length) return;
      admitted.set(query.key, { registeredText: query.byId ? text : undefined });
    },
  };

  return { plugin: plugin as Plugin, answered: () => answered, bytes: admitted.bytes };
}
