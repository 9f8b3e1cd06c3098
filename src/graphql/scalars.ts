import { GraphQLError, Kind, type ValueNode } from "graphql";
import { GraphQLURL } from "graphql-scalars";
import { isoTimestamp } from "../lib/iso-timestamp.ts";
import { builder } from "./builder.ts";

function parseDateTime(value: unknown): Date {
  if (typeof value === "string") {
    const date = new Date(value);
    if (!Number.isNaN(date.getTime())) return date;
  }
  throw new GraphQLError("DateTime must be an ISO 8601 date-time string");
}

builder.scalarType("DateTime", {
  description: "ISO 8601 date-time string.",
  serialize: (value) => isoTimestamp(value instanceof Date ? value : new Date(String(value))),
  parseValue: parseDateTime,
  // One parameter: graphql-jit warns on every compile when a scalar's parseLiteral also takes the variables.
  parseLiteral: (node) => parseDateTime(node.kind === Kind.STRING ? node.value : undefined),
});

function literalValue(node: ValueNode, variables: Record<string, unknown> | null | undefined): unknown {
  switch (node.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
      return node.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(node.value);
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return node.values.map((value) => literalValue(value, variables));
    case Kind.OBJECT:
      return Object.fromEntries(node.fields.map((field) => [field.name.value, literalValue(field.value, variables)]));
    case Kind.VARIABLE:
      return variables?.[node.name.value];
    default:
      throw new GraphQLError("Unsupported JSON literal");
  }
}

builder.scalarType("JSON", {
  description: "Any JSON value (rich-text documents, merge rules, schemas).",
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (node, variables) => literalValue(node, variables),
});

/**
 * Absolute URLs, graphql-scalars' `URL` (its name, description, input parsing and JSON Schema format). Output is the
 * string as the server built or validated it: the library's serializer re-parses each value through `new URL`, a
 * parse per field on every list item, and normalizes it (`https://host` becomes `https://host/`), which would change
 * the REST bodies' URLs.
 */
builder.addScalarType("URL", GraphQLURL, {
  serialize: (value) => {
    if (typeof value === "string") return value;
    if (value instanceof URL) return value.href;
    throw new GraphQLError("URL cannot represent a non-URL value");
  },
});
