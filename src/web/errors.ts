import type { Response } from "@whatwg-node/fetch";
import { unavailableRetrySeconds } from "../lib/errors.ts";
import { jsonResponse } from "./json-response.ts";

/**
 * The public API's error body: `{ "error": { "code": <http status>, "message": "..." } }`. Responses in src are the
 * fetch ponyfill's (`@whatwg-node/fetch`): the node adapter writes their body directly, where undici's would be read
 * back through a ReadableStream.
 */
export function restError(status: number, message: string, headers: Record<string, string> = {}): Response {
  // A 503 always says when to come back (a database outage: a few seconds; load shedding passes its own).
  const retry: Record<string, string> =
    status === 503 && !("Retry-After" in headers) ? { "Retry-After": String(unavailableRetrySeconds) } : {};
  return jsonResponse({ error: { code: status, message } }, { status, headers: { ...headers, ...retry } });
}
