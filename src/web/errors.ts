import type { Response } from "@whatwg-node/fetch";
import { type ErrorCode, publicMessageOf, retryAfterSecondsOf, statusOf } from "../lib/error-codes.ts";
import { jsonResponse } from "./json-response.ts";

/**
 * The public API's error body for an error of kind `code`: `{ "error": { "code": <http status>, "message": "..." } }`,
 * under the status the error table gives the kind (src/lib/error-codes.ts). Responses in src are the fetch ponyfill's
 * (`@whatwg-node/fetch`): the node adapter writes their body directly, where undici's would be read back through a
 * ReadableStream.
 */
export function restError(code: ErrorCode, message: string, headers: Record<string, string> = {}): Response {
  const status = statusOf(code);
  // A kind that says when to come back always does (a database outage: the table's seconds; load shedding its own).
  const seconds = retryAfterSecondsOf(code);
  const retry: Record<string, string> =
    seconds !== undefined && !("Retry-After" in headers) ? { "Retry-After": String(seconds) } : {};
  return jsonResponse(
    { error: { code: status, message: publicMessageOf(code, message) } },
    { status, headers: { ...headers, ...retry } },
  );
}
