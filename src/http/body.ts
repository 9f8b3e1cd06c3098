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

const quote = 0x22;
const backslash = 0x5c;
const openBracket = 0x5b;
const openBrace = 0x7b;
const closeBracket = 0x5d;
const closeBrace = 0x7d;

/**
 * Whether JSON text nests arrays and objects deeper than `limit`, by counting brackets outside strings: one pass,
 * no parse and no recursion, so a body nested thousands deep is refused before anything walks it.
 */
export function jsonNestingExceeds(bytes: Uint8Array, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < bytes.length; index++) {
    const byte = bytes[index] as number;
    if (inString) {
      if (byte === backslash) index++;
      else if (byte === quote) inString = false;
    } else if (byte === quote) inString = true;
    else if (byte === openBracket || byte === openBrace) {
      if (++depth > limit) return true;
    } else if (byte === closeBracket || byte === closeBrace) depth--;
  }
  return false;
}
