import SchemaBuilder from "@pothos/core";
import RelayPlugin from "@pothos/plugin-relay";
import type { TotalCount } from "../paging/pagination.ts";
import { globalIdOf, nodeTypeNames, typeOfId } from "../platform/ids.ts";
import type { RequestContext } from "../request/context.ts";
import { nodesCost } from "./node-list.ts";
// Registers the schema conventions' plugins under their names.
import "./schema-conventions.ts";

export const builder = new SchemaBuilder<{
  Context: RequestContext;
  DefaultFieldNullability: false;
  Scalars: {
    // graphql-js coerces every ID input to a string, so resolvers need no String(...) cast.
    ID: { Input: string; Output: string };
    DateTime: { Input: Date; Output: Date };
    JSON: { Input: unknown; Output: unknown };
    // Output: the absolute URL the server built or validated, as a string; input: parsed by graphql-scalars.
    URL: { Input: URL; Output: string };
  };
  Connection: { totalCount: TotalCount };
}>({
  // The schema conventions (src/graphql/schema-conventions.ts) run after the relay plugin, on the schema it has built.
  // Pothos runs the plugins' `afterBuild` from the last listed to the first, so this order makes them run as they
  // must: shared edges first, mutation inputs reshaped before enum values are named in input descriptions, ids
  // resolved before own properties are read, and value objects keyed last, on the finished schema.
  plugins: [
    RelayPlugin,
    "valueObjectIds",
    "enumInputDescriptions",
    "ownProperties",
    "nodeIds",
    "partialSuccess",
    "oneInputPerMutation",
    "sharedEdges",
    "userErrors",
    "mutationErrors",
  ],
  defaultFieldNullability: false,
  relay: {
    clientMutationId: "omit",
    cursorType: "String",
    encodeGlobalID: (_typename, id) => globalIdOf(id),
    // An id of no node type cannot be fetched; looking it up as an organization answers null like any missing id.
    decodeGlobalID: (globalID) => {
      const type = typeOfId(globalID);
      return { typename: (type && nodeTypeNames.get(type)) ?? "Organization", id: globalID };
    },
    defaultConnectionTypeOptions: { description: "A page of a list, with cursors to page on (a Relay connection)." },
    defaultEdgeTypeOptions: { description: "One item of a page, with its cursor." },
    nodesOnConnection: { description: "The page's nodes, in order (the edges' nodes without their cursors)." },
    nodeQueryOptions: {
      description: "Any object by its id, when the caller may read it; null when it does not exist or is hidden.",
      args: { id: { description: "The object's id, as every field and REST path returns it." } },
    },
    nodesQueryOptions: {
      description: "Objects by their ids, in the order asked; null in place of each one that is missing or hidden.",
      args: { ids: { description: "The objects' ids, as every field and REST path returns them (100 at most)." } },
      extensions: { cost: nodesCost },
    },
    nodeTypeOptions: { description: "An object with a stable id that `node(id:)` and `nodes(ids:)` fetch again." },
    idFieldOptions: { description: "The object's id: prefixed by its type, the same in GraphQL and REST." },
    pageInfoTypeOptions: { description: "Where a page sits in its connection, and the cursors to page on from it." },
    hasNextPageFieldOptions: { description: "Whether items follow this page (page on with `after: endCursor`)." },
    hasPreviousPageFieldOptions: { description: "Whether items precede this page (page back with `before`)." },
    startCursorFieldOptions: { description: "Cursor of the page's first item; null on an empty page." },
    endCursorFieldOptions: { description: "Cursor of the page's last item; null on an empty page." },
    cursorFieldOptions: { description: "Opaque position of this edge; pass it as `after` or `before`." },
    nodeFieldOptions: { description: "The item at this position." },
    edgesFieldOptions: { description: "The page's items, each with its cursor." },
    pageInfoFieldOptions: { description: "Cursors and whether more pages exist." },
    firstArgOptions: {
      description: "Page size from the start or from `after` (0..1000; default depends on the list).",
    },
    lastArgOptions: { description: "Page size from the end or from `before` (0..1000)." },
    afterArgOptions: { description: "A cursor (`endCursor` of the previous page): items after it." },
    beforeArgOptions: { description: "A cursor (`startCursor` of the next page): items before it." },
  },
});

/** The builder's schema types, for helpers that take any object ref of this schema. */
export type BuilderTypes = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;
