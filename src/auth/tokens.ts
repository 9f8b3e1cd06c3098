import { hash, timingSafeEqual } from "node:crypto";
import { randomBase62 } from "../platform/ids.ts";

const tokenPattern = /^dmt_([0-9A-Za-z]{16})_([0-9A-Za-z]{40})$/;

export interface IssuedToken {
  /** Shown to the caller once; never stored. */
  token: string;
  lookup: string;
  hash: string;
}

/** Every authenticated request hashes its token: the one-shot `hash` takes half the time of a Hash object. */
export function hashToken(token: string): string {
  return hash("sha256", token, "hex");
}

/** Random token `dmt_<lookup>_<secret>`; the lookup part finds the row, the hash of the whole proves it. */
export function issueToken(): IssuedToken {
  const lookup = randomBase62(16);
  const token = `dmt_${lookup}_${randomBase62(40)}`;
  return { token, lookup, hash: hashToken(token) };
}

/**
 * Operators may choose a token for automation (BOOTSTRAP_ADMIN_TOKEN); any string of 16+ characters is accepted,
 * its lookup being derived from its hash so that it needs no particular shape.
 */
export function tokenFromValue(token: string): IssuedToken {
  const match = tokenPattern.exec(token);
  const hash = hashToken(token);
  return { token, lookup: match?.[1] ?? `h${hash.slice(0, 23)}`, hash };
}

/** Whether the sha256 `hash` of a presented token is the stored one, compared in constant time. */
export function hashMatches(hash: string, storedHash: string): boolean {
  const actual = Buffer.from(hash, "hex");
  const expected = Buffer.from(storedHash, "hex");
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
