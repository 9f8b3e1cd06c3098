import { lexicographicSortSchema, printSchema } from "graphql";
import { builder } from "../graphql/builder.ts";
import "../graphql/scalars.ts";
import "../graphql/connections.ts";
import "../graphql/rate-limit.ts";
// Each module's manifest registers its GraphQL files with the builder as the module list loads them.
import "./modules.ts";

builder.queryType({
  description: "Reads: nouns on the graph; each field's description names its public operation id.",
});
builder.mutationType({
  description:
    "Writes, named for what they do (each description names its public operation id); each answers its own payload.",
});
builder.subscriptionType({
  description: "Live updates over server-sent events (`Accept: text/event-stream`), from every instance.",
});

export const schema = builder.toSchema({ sortSchema: true });

/** The SDL committed as `schema.graphql` (sorted, so diffs show real changes only). */
export function printSortedSchema(): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
