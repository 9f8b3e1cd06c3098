import { createHash } from "node:crypto";
import persistedDocuments from "@docs-management-gateway/sdk/persisted-documents.json" with { type: "json" };
import { usePersistedOperations } from "@graphql-yoga/plugin-persisted-operations";
import { type DefinitionNode, Kind, parse, print, visit } from "graphql";
import { createGraphQLError, type GraphQLParams, type Plugin } from "graphql-yoga";

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

const registered: Readonly<Record<string, string>> = persistedDocuments;

/**
 * The registered document a request names: `documentId` ("sha256:<hex>", GraphQL over HTTP's persisted documents;
 * in the JSON body or, for GET, the query string) or Apollo's `extensions.persistedQuery.sha256Hash`.
 */
function requestedDocumentId(params: GraphQLParams & { documentId?: unknown }, request: Request): string | null {
  const documentId =
    params.documentId ?? (request.method === "GET" ? new URL(request.url).searchParams.get("documentId") : null);
  if (typeof documentId === "string") return documentId.replace(/^sha256:/, "");
  const hash = params.extensions?.persistedQuery?.sha256Hash;
  return typeof hash === "string" ? hash : null;
}

const badRequest = (message: string, code: string) => () =>
  createGraphQLError(message, { extensions: { code, status: 400, http: { status: 400 } } });

/**
 * Serves the SDK's registered documents by id (GET-able: a short, stable URL); with `trustedOnly`
 * (TRUSTED_DOCUMENTS_ONLY) nothing else runs. REST routes keep working: their documents are the server's own and enter
 * the pipeline at execution (src/graphql/server.ts), after the request parameters this plugin checks.
 */
export function trustedDocumentsPlugin(trustedOnly: boolean): Plugin {
  return usePersistedOperations({
    allowArbitraryOperations: !trustedOnly,
    extractPersistedOperationId: (params, request) => requestedDocumentId(params, request),
    getPersistedOperation: (id) => registered[id] ?? null,
    customErrors: {
      notFound: badRequest(
        "No registered document has this id: send the document in `query`, or an id from the SDK's " +
          "persisted-documents.json",
        "PERSISTED_DOCUMENT_NOT_FOUND",
      ),
      keyNotFound: badRequest(
        "Send a GraphQL document in `query`, or the id of a registered one in `documentId`",
        "BAD_REQUEST",
      ),
      persistedQueryOnly: badRequest(
        "This server runs only registered documents (TRUSTED_DOCUMENTS_ONLY): send `documentId` instead of `query`",
        "TRUSTED_DOCUMENTS_ONLY",
      ),
    },
  }) as Plugin;
}
