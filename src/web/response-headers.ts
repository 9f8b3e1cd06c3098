/** On every response: no MIME sniffing, no framing by other sites, no URL (ids, keys) leaked in Referer. */
const everyResponse: Record<string, string> = {
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
};

/**
 * Every response but the GraphiQL page: nothing may load or run. JSON needs nothing, and an uploaded HTML or SVG
 * file served from `/files` cannot run scripts on this origin.
 */
export const lockedDown = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

export function setSecurityHeaders(headers: Headers, contentSecurityPolicy = lockedDown): void {
  for (const [name, value] of Object.entries(everyResponse)) headers.set(name, value);
  headers.set("content-security-policy", contentSecurityPolicy);
}
