import { GraphQLClient } from "graphql-request";
import { getSdk, type Sdk } from "./generated.js";
import persistedDocuments from "./persisted-documents.json" with { type: "json" };

export type * from "./generated.js";

export interface GatewayClientOptions {
  /** An API token (`dmt_...`), sent as `Authorization: Bearer`. */
  token?: string;
  /** Another fetch (tests, proxies); the global one by default. */
  fetch?: typeof fetch;
  /**
   * Send each operation's registered id instead of its text (default true): queries as short GET URLs, mutations
   * as POST. Needed where the server accepts only registered documents (TRUSTED_DOCUMENTS_ONLY).
   */
  persisted?: boolean;
}

/** The `documentId` of each operation of `operations.graphql`, by operation name. */
const documentIds = new Map(
  Object.entries(persistedDocuments).flatMap(([hash, text]) => {
    const name = /^(?:query|mutation|subscription)\s+(\w+)/.exec(text)?.[1];
    return name ? [[name, `sha256:${hash}`] as const] : [];
  }),
);

/**
 * A fetch that replaces the document graphql-request sends (`query`, in the URL of a GET or the JSON body of a
 * POST) by its registered id; a document of no registered name goes as it is.
 */
function sendingDocumentIds(send: typeof fetch): typeof fetch {
  return (input, init) => {
    if (init?.method === "GET") {
      const url = new URL(input instanceof Request ? input.url : input);
      const documentId = documentIds.get(url.searchParams.get("operationName") ?? "");
      if (!documentId) return send(input, init);
      url.searchParams.delete("query");
      url.searchParams.set("documentId", documentId);
      return send(url, init);
    }
    if (typeof init?.body !== "string") return send(input, init);
    const { query, ...body } = JSON.parse(init.body) as { query?: string; operationName?: string };
    const documentId = documentIds.get(body.operationName ?? "");
    if (!documentId) return send(input, init);
    return send(input, { ...init, body: JSON.stringify({ ...body, documentId }) });
  };
}

/** A typed client of the gateway's GraphQL API: one method per operation of `operations.graphql`. */
export function createGatewayClient(baseUrl: string, options: GatewayClientOptions = {}): Sdk {
  const send = options.fetch ?? ((input, init) => fetch(input, init));
  const persisted = options.persisted ?? true;
  const client = new GraphQLClient(`${baseUrl.replace(/\/$/, "")}/graphql`, {
    headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
    fetch: persisted ? sendingDocumentIds(send) : send,
    // Queries by id are GET requests, which HTTP caches and CDNs key by URL; mutations stay POST.
    method: persisted ? "GET" : "POST",
  });
  return getSdk(client);
}
