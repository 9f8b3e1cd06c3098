export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * One `/v1` endpoint as data. Path parameters and query parameters become the document's variables of the same
 * name (query values coerced to the variable's declared type), the JSON body becomes `$input`, and the value at
 * `result` (a dotted path into `data`) becomes the response body: a connection becomes the page-token envelope.
 */
/**
 * A query parameter of the reference that maps to no document variable of its name: either accepted with one of
 * `oneOf` (answered as is, because the model has nothing it would change, or turned into other variables by the
 * route's `queryVariables`) or refused with 400 and `unsupported` as the reason, so that no parameter of the
 * reference is silently ignored.
 */
export type QueryRule =
  | { oneOf: readonly string[] }
  | { unsupported: string }
  /** An integer within these bounds, checked under the parameter's own name before it becomes a variable. */
  | { integerBetween: readonly [number, number] };

/**
 * Query parameters of the reference that the document takes in another form (`order=asc` as an `orderBy` key, `type`
 * as `filter.type`): `queryRules` checks their values (`oneOf`), then `from` turns those sent into the variables
 * named in `variables`, which no query parameter sets under its own name.
 */
export interface QueryVariables {
  variables: readonly string[];
  /** The variables' values; `sent` answers a parameter's last value, or undefined when it was not sent. */
  from(sent: (parameter: string) => string | undefined): Record<string, unknown>;
}

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
  /** Variables of the document set from query parameters of other names (see `QueryVariables`). */
  queryVariables?: QueryVariables;
  /**
   * Body fields of the reference the route accepts and ignores (a string each, or null): the model has no use for
   * them, and refusing them would refuse the official client's bodies. Documented as deprecated.
   */
  ignoredBodyFields?: Readonly<Record<string, string>>;
  /**
   * A thing GraphQL answers as null when it does not exist yet (a nullable field): its dotted path into `data` and
   * the 404 message the route answers when it is null under a parent that was read (otherwise 404 "Not found").
   */
  absent?: { path: string; message: (variables: Readonly<Record<string, unknown>>) => string };
}
