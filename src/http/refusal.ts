import type { Exchange } from "../web/call.ts";
import { restError } from "../web/errors.ts";
import { jsonResponse } from "../web/json-response.ts";

/**
 * A request refused before it ran: REST's error body, or on `/graphql` a GraphQL answer with no data, under the same
 * status (GraphQL over HTTP: a request that did not run answers 4xx/5xx, never 200) and Retry-After.
 */
export function refusal(
  { url }: Pick<Exchange, "url">,
  status: number,
  code: string,
  message: string,
  headers: Record<string, string>,
): Response {
  if (url.pathname !== "/graphql") return restError(status, message, headers);
  const retryAfter = headers["Retry-After"] === undefined ? {} : { retryAfter: Number(headers["Retry-After"]) };
  return jsonResponse({ errors: [{ message, extensions: { code, status, ...retryAfter } }] }, { status, headers });
}
