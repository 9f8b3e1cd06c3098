import SchemaBuilder from "@pothos/core";
import RelayPlugin from "@pothos/plugin-relay";
import type { RequestContext } from "../context.ts";
import { nodeTypeNames, typeOfId } from "../ids.ts";

export const builder = new SchemaBuilder<{
  Context: RequestContext;
  DefaultFieldNullability: false;
  Scalars: {
    DateTime: { Input: Date; Output: Date };
    JSON: { Input: unknown; Output: unknown };
  };
  Connection: { totalCount: number };
}>({
  plugins: [RelayPlugin],
  defaultFieldNullability: false,
  relay: {
    clientMutationId: "omit",
    cursorType: "String",
    // Ids carry their type prefix already, so the global id is the id REST uses.
    encodeGlobalID: (_typename, id) => String(id),
    // An id of no node type cannot be fetched; looking it up as an organization answers null like any missing id.
    decodeGlobalID: (globalID) => {
      const type = typeOfId(globalID);
      return { typename: (type && nodeTypeNames.get(type)) ?? "Organization", id: globalID };
    },
    nodesOnConnection: {},
  },
});
