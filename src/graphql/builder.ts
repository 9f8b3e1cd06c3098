import SchemaBuilder from "@pothos/core";
import RelayPlugin from "@pothos/plugin-relay";
import type { RequestContext } from "../context.ts";
import { typeOfId } from "../ids.ts";

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
    decodeGlobalID: (globalID) => ({ typename: typeOfId(globalID) ?? "Unknown", id: globalID }),
    nodesOnConnection: {},
  },
});
