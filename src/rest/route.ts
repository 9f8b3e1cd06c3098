export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * One `/v1` endpoint as data. Path parameters and query parameters become the document's variables of the same
 * name (query values coerced to the variable's declared type), the JSON body becomes `$input`, and the value at
 * `result` (a dotted path into `data`) becomes the response body: a connection becomes the page-token envelope.
 */
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
}
