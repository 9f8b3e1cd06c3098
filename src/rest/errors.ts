import type { Response } from "@whatwg-node/fetch";
import { jsonResponse } from "../http/json-response.ts";

/**
 * The public API's error body: `{ "error": { "code": <http status>, "message": "..." } }`. Responses in src are the
 * fetch ponyfill's (`@whatwg-node/fetch`): the node adapter writes their body directly, where undici's would be read
 * back through a ReadableStream.
 */
export function restError(status: number, message: string, headers: Record<string, string> = {}): Response {
  return jsonResponse({ error: { code: status, message } }, { status, headers });
}
