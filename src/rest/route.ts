export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * One `/v1` endpoint as data. Path parameters and query parameters become the document's variables of the same
 * name (query values coerced to the variable's declared type), the JSON body becomes `$input`, and the value at
 * `result` (a dotted path into `data`) becomes the response body: a connection becomes the page-token envelope.
 */
/**
 * A query parameter of the reference that maps to no document variable: either accepted with one of `oneOf`
 * (answered as is, because the model has nothing it would change) or refused with 400 and `unsupported` as the
 * reason, so that no parameter of the reference is silently ignored.
 */
export type QueryRule =
  | { oneOf: readonly string[] }
  | { unsupported: string }
  /** An integer within these bounds, checked under the parameter's own name before it becomes a variable. */
  | { integerBetween: readonly [number, number] };

export interface RestRoute {
  method: HttpMethod;
  /** Path under `/v1`, with `{name}` parameters. */
  path: string;
  /** The public operation id. */
  operation: string;
  /** Success status; 204 answers an empty body. */
  status: number;
  /** A GraphQL operation (plus fragments) run against the same schema as `/graphql`. */
  document: string;
  /** Dotted path into `data` of the response body ("" for all of `data`); omitted for empty responses. */
  result?: string;
  /** Dotted path into `data` of a boolean: when true the route answers 201 (created) instead of `status`. */
  createdWhen?: string;
  /** Query parameters checked by the router without becoming variables (see `QueryRule`). */
  queryRules?: Readonly<Record<string, QueryRule>>;
  /**
   * A thing GraphQL answers as null when it does not exist yet (a nullable field): its dotted path into `data` and
   * the 404 message the route answers when it is null under a parent that was read (otherwise 404 "Not found").
   */
  absent?: { path: string; message: (variables: Readonly<Record<string, unknown>>) => string };
}
