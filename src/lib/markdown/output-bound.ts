import { DomainError } from "../errors.ts";

/**
 * Content whose conversion would be larger than the bound on a converted document (422). Unlike a timeout it does
 * not depend on the machine's load: the same content always is, so a refusal can be remembered for good.
 */
export class ConvertedTooLargeError extends DomainError {
  readonly code = "CONTENT_TOO_COMPLEX";
  constructor(readonly maxBytes: number) {
    super(
      `This content converts to more than ${maxBytes} bytes (MAX_CONVERTED_BYTES, the bound on a converted ` +
        "document): make its tables smaller or split it",
    );
  }
}

/**
 * The fewest bytes a document node's JSON takes (`{"object":"text","key":"k0","leaves":[]}` is 41): a conversion
 * that made more than `maxBytes / minNodeBytes` nodes is over the bound, and can stop there instead of building the
 * rest (a 5 KB table of 1,000 empty columns per row builds a 108 MB document).
 */
const minNodeBytes = 40;

export const maxNodesWithin = (maxBytes: number) => Math.floor(maxBytes / minNodeBytes);

/** `bytes` of converted JSON, or the refusal when that is over `maxBytes`. */
export function checkConvertedBytes(bytes: number, maxBytes: number): number {
  if (bytes > maxBytes) throw new ConvertedTooLargeError(maxBytes);
  return bytes;
}
