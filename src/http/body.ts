import type { IncomingMessage } from "node:http";

export class PayloadTooLargeError extends Error {}

/** No byte of the body arrived for `idleMs`: a client that stalls holds a body slot of its address, not more. */
export class BodyTimeoutError extends Error {}

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
  return bodyBytes(chunks);
}

/**
 * The chunks as one array of bytes that owns its memory, copied once: a body joined from one chunk, or small enough
 * for Buffer's shared pool, would otherwise be a view into memory other buffers use too.
 */
function bodyBytes(chunks: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const size = chunks.reduce((total, chunk) => total + chunk.byteLength, 0);
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * Like `readBodyWithin`, from node's request stream itself (a GET or HEAD request has no body), refused with
 * BodyTimeoutError when no byte arrives for `idleMs` (Node's own requestTimeout bounds the whole request).
 */
export function readNodeBodyWithin(
  incoming: IncomingMessage,
  maxBytes: number,
  idleMs: number,
): Promise<Uint8Array<ArrayBuffer> | undefined> {
  if (incoming.method === "GET" || incoming.method === "HEAD") return Promise.resolve(undefined);
  if (Number(incoming.headers["content-length"] ?? "0") > maxBytes) return Promise.reject(new PayloadTooLargeError());
  // Closed while it waited for its turn (guard.ts): no event would come.
  if (incoming.destroyed) return Promise.reject(new Error("The request body ended early: the connection closed"));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onIdle = () => settle(new BodyTimeoutError());
    const idle = setTimeout(onIdle, idleMs);
    const settle = (error: Error | undefined) => {
      clearTimeout(idle);
      incoming.off("data", onData).off("end", onEnd).off("error", onError).off("close", onClose);
      if (error) reject(error);
      else resolve(bodyBytes(chunks));
    };
    const onData = (chunk: Buffer) => {
      idle.refresh();
      size += chunk.byteLength;
      if (size > maxBytes) settle(new PayloadTooLargeError());
      else chunks.push(chunk);
    };
    const onEnd = () => settle(undefined);
    const onError = (error: Error) => settle(error);
    // Closed before its end: the client went away mid-body.
    const onClose = () => settle(new Error("The request body ended early: the connection closed"));
    incoming.on("data", onData).on("end", onEnd).on("error", onError).on("close", onClose);
  });
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
export function jsonNestingExceeds(json: Uint8Array, limit: number): boolean {
  // Buffer's searches are native (memchr); a plain Uint8Array's indexOf steps through the bytes in JavaScript's.
  const bytes = Buffer.from(json.buffer, json.byteOffset, json.byteLength);
  let depth = 0;
  let inString = false;
  /** While in a string: the next quote at or after the position, which ends it unless escaped. */
  let end = -1;
  /** The next backslash at or after the position (the length when none follows). */
  let nextBackslash = -1;
  for (let index = 0; index < bytes.length; index++) {
    if (inString) {
      // A string's text is skipped with native searches: a query text of a megabyte is one string, and stepping
      // through it byte by byte held the event loop noticeably. Each search is made again only once passed, so each
      // byte is searched once, and nothing is allocated per string (34,000 short strings made as many views).
      if (end < index) end = bytes.indexOf(quote, index);
      if (end < 0) return false;
      if (nextBackslash < index) {
        const found = bytes.indexOf(backslash, index);
        nextBackslash = found < 0 ? bytes.length : found;
      }
      if (nextBackslash < end) index = nextBackslash + 1;
      else {
        index = end;
        inString = false;
      }
      continue;
    }
    const byte = bytes[index] as number;
    if (byte === quote) inString = true;
    else if (byte === openBracket || byte === openBrace) {
      if (++depth > limit) return true;
    } else if (byte === closeBracket || byte === closeBrace) depth--;
  }
  return false;
}
