/** An address as a key: X-Forwarded-For entries are the client's to write, so they are bounded like any input. */
const maxAddressLength = 64;

/**
 * The caller's address: the peer's, or behind `trustedHops` proxies, the address the outermost of them saw. Each
 * proxy appends the address it received the request from to X-Forwarded-For, so with one proxy the client is the
 * last entry, with two the one before it; entries further left were written by the client and prove nothing. A
 * request with fewer entries than proxies did not come through them all: its peer is the address.
 */
export function clientAddress(peer: string, forwardedFor: string | null, trustedHops: number): string {
  if (trustedHops <= 0 || !forwardedFor) return peer;
  const entries = forwardedFor.split(",");
  const address = entries[entries.length - trustedHops]?.trim();
  return address ? address.slice(0, maxAddressLength) : peer;
}
