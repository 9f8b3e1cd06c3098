import { type ErrorCode, statusOf } from "../lib/error-codes.ts";
import type { Exchange } from "../web/call.ts";
import { restError } from "../web/errors.ts";
import { jsonResponse } from "../web/json-response.ts";

/**
 * A request refused before it ran: REST's error body, or on `/graphql` a GraphQL answer with no data, under the same
 * status (GraphQL over HTTP: a request that did not run answers 4xx/5xx, never 200) and Retry-After.
 */
export function refusal(
  { url }: Pick<Exchange, "url">,
  code: ErrorCode,
  message: string,
  headers: Record<string, string>,
): Response {
  if (url.pathname !== "/graphql") return restError(code, message, headers);
  const status = statusOf(code);
  const retryAfter = headers["Retry-After"] === undefined ? {} : { retryAfter: Number(headers["Retry-After"]) };
  return jsonResponse({ errors: [{ message, extensions: { code, status, ...retryAfter } }] }, { status, headers });
}
