import { maxPageSize } from "../paging/pagination.ts";
import type { QueryRule, RestRoute } from "./route.ts";

export interface ListRouteSpec {
  path: string;
  /** The public operation id, also the document's operation name. */
  operation: string;
  /** Variables of the path and the filters, without `$limit` and `$page`: `$organizationId: ID!, $title: String`. */
  variables?: string;
  /**
   * Fields from the root to the list, outermost first; the last is the connection, with its filter arguments
   * (`first: $limit, after: $page` are added): `["organization(id: $organizationId)", "teams(title: $title)"]`.
   */
  fields: readonly [...string[], string];
  /** What each item selects. */
  nodes: string;
  /** Fields of the list besides the connection's own (a list's `stats`); they join the envelope. */
  listFields?: string;
  /** Fragment definitions the selections spread. */
  fragments?: string;
  /** Query parameters of the reference checked without becoming variables (see `QueryRule`). */
  queryRules?: Readonly<Record<string, QueryRule>>;
}

/** The response key a field selection answers under: its alias, or its name. */
const responseKey = (field: string) => (field.split("(")[0] as string).split(":")[0]?.trim() as string;

/** `inner` selected at the end of `fields` (outermost first): `a { b { inner } }`. */
export function selectAlong(fields: readonly string[], inner: string): string {
  return fields.reduceRight((selection, field) => `${field} { ${selection} }`, inner);
}

/** The dotted path into `data` of what `selectAlong(fields, ...)` selects, a route's `result`. */
export function resultAlong(fields: readonly string[]): string {
  return fields.map(responseKey).join(".");
}

function withPageArguments(field: string): string {
  const open = field.indexOf("(");
  if (open === -1) return `${field}(first: $limit, after: $page)`;
  return `${field.slice(0, open + 1)}first: $limit, after: $page, ${field.slice(open + 1)}`;
}

/**
 * A `GET` list route: `limit` and `page` page the connection at the end of `fields`, and the router turns it
 * into the `{ items, count, next }` envelope.
 */
export function listRoute(spec: ListRouteSpec): RestRoute {
  const parents = spec.fields.slice(0, -1);
  const list = spec.fields.at(-1) as string;
  const variables = [spec.variables, "$limit: Int, $page: String"].filter(Boolean).join(", ");
  const connection = `${withPageArguments(list)} {
    totalCount pageInfo { hasNextPage endCursor } ${spec.listFields ?? ""} nodes { ${spec.nodes} }
  }`;
  return {
    method: "GET",
    path: spec.path,
    operation: spec.operation,
    status: 200,
    result: resultAlong(spec.fields),
    document: `query ${spec.operation}(${variables}) { ${selectAlong(parents, connection)} } ${spec.fragments ?? ""}`,
    // `limit` is checked under its own name: as `first`, its errors would name an argument the caller never sent.
    queryRules: { limit: { integerBetween: [0, maxPageSize] }, ...spec.queryRules },
  };
}
