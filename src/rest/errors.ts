/** The public API's error body: `{ "error": { "code": <http status>, "message": "..." } }`. */
export function restError(status: number, message: string, headers: Record<string, string> = {}): Response {
  return Response.json({ error: { code: status, message } }, { status, headers });
}
