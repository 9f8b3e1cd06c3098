import { expect } from "vitest";

/** A span as both exporters show it: the in-memory one's and OTLP's JSON, reduced to what the tests compare. */
export interface SpanRecord {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
}

/**
 * Checks the trace of one nested read (`rootField` -> `Organization.sites` -> `Site.sections`) sent as the GraphQL
 * operation `operationName`: the HTTP span is the root, the operation its child, each resolver span the child of
 * the one above it, and SQL statements children of the resolvers that sent them. Returns the HTTP span.
 */
export function expectNestedReadTrace(spans: SpanRecord[], operationName: string, rootField: string): SpanRecord {
  const named = (name: string) => spans.filter((span) => span.name === name);
  const [http] = named(`POST /graphql ${operationName}`);
  expect(http, spans.map((span) => span.name).join(", ")).toBeDefined();
  const trace = spans.filter((span) => span.traceId === http?.traceId);
  const childrenOf = (parent: SpanRecord | undefined, name: string) =>
    trace.filter((span) => span.parentSpanId === parent?.spanId && span.name === name);
  expect(http?.parentSpanId || undefined).toBeUndefined();
  const [operation] = childrenOf(http, `query ${operationName}`);
  expect(operation).toBeDefined();
  const [root] = childrenOf(operation, rootField);
  expect(root).toBeDefined();
  const sites = childrenOf(root, "Organization.sites");
  expect(sites.length).toBeGreaterThan(0);
  const sections = sites.flatMap((site) => childrenOf(site, "Site.sections"));
  expect(sections.length).toBeGreaterThan(0);
  // pg names a prepared statement's span after the statement (`pg.query:read_3 <database>`), others after the command.
  const isSql = (span: SpanRecord) => /^(pg|pglite)\.query:/.test(span.name);
  const sqlUnder = (parents: SpanRecord[]) =>
    trace.filter((span) => isSql(span) && parents.some((parent) => parent.spanId === span.parentSpanId));
  // Each level's statement is sent by a resolver of that level (DataLoader batches a level's loads into one).
  expect(sqlUnder([root as SpanRecord]).length).toBeGreaterThan(0);
  expect(sqlUnder(sites).length).toBeGreaterThan(0);
  expect(sqlUnder(sections).length).toBeGreaterThan(0);
  return http as SpanRecord;
}
