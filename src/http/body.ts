export class PayloadTooLargeError extends Error {}

/**
 * Reads a request body up to `maxBytes`, stopping as soon as it is exceeded (a declared `content-length` over the
 * limit is refused before reading). Returns the bytes, so the request can be rebuilt for the handlers.
 */
export async function readBodyWithin(request: Request, maxBytes: number): Promise<Uint8Array<ArrayBuffer> | undefined> {
  if (!request.body) return undefined;
  if (Number(request.headers.get("content-length") ?? "0") > maxBytes) throw new PayloadTooLargeError();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new PayloadTooLargeError();
    }
    chunks.push(value);
  }
  return new Uint8Array(Buffer.concat(chunks));
}
