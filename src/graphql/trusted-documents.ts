import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import persistedDocuments from "@docs-management-gateway/sdk/persisted-documents.json" with { type: "json" };
import { usePersistedOperations } from "@graphql-yoga/plugin-persisted-operations";
import { type DefinitionNode, Kind, parse, print, visit } from "graphql";
import { createGraphQLError, type GraphQLParams, type Plugin } from "graphql-yoga";
import { LRUCache } from "lru-cache";
import { type ErrorCode, statusOf } from "../lib/error-codes.ts";
import { ConfigError } from "../platform/config.ts";

/** The id of a registered document: the SHA-256 of its text, in hex (the manifest's key). */
function documentHash(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/**
 * The manifest of `operations.graphql` (`npm run sdk:documents` writes packages/sdk/src/persisted-documents.json): each
 * operation printed with the fragments it uses, by its hash.
 */
export function persistedDocumentsOf(source: string): Record<string, string> {
  const definitions = parse(source).definitions;
  const fragments = new Map(
    definitions.flatMap((definition) =>
      definition.kind === Kind.FRAGMENT_DEFINITION ? [[definition.name.value, definition] as const] : [],
    ),
  );
  const manifest: Record<string, string> = {};
  for (const operation of definitions) {
    if (operation.kind !== Kind.OPERATION_DEFINITION) continue;
    const used = new Map<string, DefinitionNode>();
    const collect = (node: DefinitionNode) =>
      visit(node, {
        FragmentSpread(spread) {
          const fragment = fragments.get(spread.name.value);
          if (!fragment || used.has(spread.name.value)) return;
          used.set(spread.name.value, fragment);
          collect(fragment);
        },
      });
    collect(operation);
    const text = print({ kind: Kind.DOCUMENT, definitions: [operation, ...used.values()] });
    manifest[documentHash(text)] = text;
  }
  return manifest;
}

/** A manifest file the operator registers (TRUSTED_DOCUMENTS_FILES): a JSON object, hash -> document text. */
function readManifest(path: string): Record<string, string> {
  let manifest: unknown;
  try {
    manifest = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new ConfigError(`TRUSTED_DOCUMENTS_FILES: ${path} is not a readable JSON file (${String(error)})`);
  }
  if (typeof manifest !== "object" || manifest === null || Array.isArray(manifest)) {
    throw new ConfigError(`TRUSTED_DOCUMENTS_FILES: ${path} is not a JSON object of hash -> document`);
  }
  for (const [hash, text] of Object.entries(manifest)) {
    if (typeof text !== "string") throw new ConfigError(`TRUSTED_DOCUMENTS_FILES: ${path}: ${hash} is not a document`);
    try {
      parse(text);
    } catch (error) {
      throw new ConfigError(`TRUSTED_DOCUMENTS_FILES: ${path}: ${hash} does not parse (${String(error)})`);
    }
  }
  return manifest as Record<string, string>;
}

/** The SDK's manifest and the operator's, read once at start-up; one hash naming two texts stops the start. */
function registeredDocuments(files: readonly string[]): ReadonlyMap<string, string> {
  const registered = new Map<string, string>(Object.entries(persistedDocuments));
  for (const path of files) {
    for (const [hash, text] of Object.entries(readManifest(path))) {
      const known = registered.get(hash);
      if (known !== undefined && known !== text) {
        throw new ConfigError(`TRUSTED_DOCUMENTS_FILES: ${path}: ${hash} names another document already registered`);
      }
      registered.set(hash, text);
    }
  }
  return registered;
}

/** Apollo's and urql's automatic persisted queries: `extensions.persistedQuery.sha256Hash` (version 1). */
function apqHash(params: GraphQLParams): string | null {
  const hash = params.extensions?.persistedQuery?.sha256Hash;
  return typeof hash === "string" ? hash : null;
}

/**
 * The registered document a request names: `documentId` ("sha256:<hex>", GraphQL over HTTP's persisted documents;
 * in the JSON body or, for GET, the query string) or Apollo's `extensions.persistedQuery.sha256Hash`.
 */
function requestedDocumentId(params: GraphQLParams & { documentId?: unknown }, request: Request): string | null {
  const documentId =
    params.documentId ?? (request.method === "GET" ? new URL(request.url).searchParams.get("documentId") : null);
  if (typeof documentId === "string") return documentId.replace(/^sha256:/, "");
  return apqHash(params);
}

const badRequest = (message: string, code: ErrorCode) =>
  createGraphQLError(message, { extensions: { code, status: statusOf(code), http: { status: statusOf(code) } } });

export interface TrustedDocumentsOptions {
  /** TRUSTED_DOCUMENTS_ONLY: only registered documents run, and no text is learnt by its hash. */
  trustedDocumentsOnly: boolean;
  /** TRUSTED_DOCUMENTS_FILES: front ends' manifests registered beside the SDK's. */
  trustedDocumentsFiles: readonly string[];
  /** The automatic persisted queries' texts are held within GRAPHQL_CACHE_BYTES, each at most this long. */
  graphqlCacheBytes: number;
  graphqlCacheMaxDocumentBytes: number;
}

/**
 * Persisted documents for every client, on yoga's persisted-operations plugin:
 * - registered documents by id (GET-able: a short, stable URL): the SDK's and the operator's manifests;
 * - with `trustedDocumentsOnly` nothing else runs, and an unknown id is `PERSISTED_DOCUMENT_NOT_FOUND` (resending
 *   the text would be refused);
 * - otherwise Apollo's and urql's automatic persisted queries: an unknown hash answers `PersistedQueryNotFound`
 *   (`PERSISTED_QUERY_NOT_FOUND`), the client resends it with the text, whose SHA-256 must be the hash, and the
 *   text is kept in memory by its hash (least recently used out), so the next request sends the hash alone.
 * REST routes keep working: their documents are the server's own and enter the pipeline at execution
 * (src/graphql/server.ts), after the request parameters this plugin checks.
 */
export function trustedDocumentsPlugin(options: TrustedDocumentsOptions): Plugin {
  const trustedOnly = options.trustedDocumentsOnly;
  const registered = registeredDocuments(options.trustedDocumentsFiles);
  const learnt = new LRUCache<string, string>({
    maxSize: Math.max(1, options.graphqlCacheBytes),
    sizeCalculation: (text) => Math.max(1, text.length),
  });
  const persisted = usePersistedOperations({
    allowArbitraryOperations: !trustedOnly,
    extractPersistedOperationId: (params, request) => requestedDocumentId(params, request),
    getPersistedOperation: (id) => registered.get(id) ?? (trustedOnly ? undefined : learnt.get(id)) ?? null,
    customErrors: {
      notFound: ({ params }) =>
        !trustedOnly && apqHash(params) !== null && !("documentId" in params && params.documentId)
          ? // The exact message and code Apollo's and urql's links look for before resending with the text.
            badRequest("PersistedQueryNotFound", "PERSISTED_QUERY_NOT_FOUND")
          : badRequest(
              "No registered document has this id: send the document in `query`, or an id from a registered " +
                "manifest (the SDK's persisted-documents.json, TRUSTED_DOCUMENTS_FILES)",
              "PERSISTED_DOCUMENT_NOT_FOUND",
            ),
      keyNotFound: () =>
        badRequest("Send a GraphQL document in `query`, or the id of a registered one in `documentId`", "BAD_REQUEST"),
      persistedQueryOnly: () =>
        badRequest(
          "This server runs only registered documents (TRUSTED_DOCUMENTS_ONLY): send `documentId` instead of `query`",
          "TRUSTED_DOCUMENTS_ONLY",
        ),
    },
  }) as Plugin;
  return {
    ...persisted,
    onParams(payload) {
      const hash = apqHash(payload.params);
      const text = payload.params.query;
      if (!trustedOnly && hash !== null && typeof text === "string") {
        if (documentHash(text) !== hash) {
          throw badRequest("extensions.persistedQuery.sha256Hash is not the SHA-256 of `query`", "BAD_USER_INPUT");
        }
        if (text.length <= options.graphqlCacheMaxDocumentBytes) learnt.set(hash, text);
      }
      return persisted.onParams?.(payload);
    },
  };
}
