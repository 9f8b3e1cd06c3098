import type { LookupAddress } from "node:dns";
import { lookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import { BlockList, isIP } from "node:net";

/**
 * Why a fetch failed, in the terms of `lastProcessErrorCode`; `retryable` when trying later may succeed (a refused or
 * reset connection, a slow connect, a resolver failure, a 5xx or 429). A 4xx, a name that does not exist, a refused
 * address and the total deadline are permanent.
 */
export class SourceFetchError extends Error {
  constructor(
    readonly code: "FETCH_TIMEOUT" | "FETCH_ERROR",
    message: string,
    readonly retryable = false,
  ) {
    super(message);
  }
}

export interface SafeFetchOptions {
  /** Host names (lower case) the operator opened: their addresses are not checked. */
  allowHosts: readonly string[];
  /** Deadline of the whole fetch, redirects included: a source this slow is not retried. */
  timeoutMs: number;
  /** Deadline of each TCP (and TLS) connection: a host that does not accept in time may be down for a while. */
  connectTimeoutMs: number;
  maxBytes: number;
  /** The caller's abort (a job out of time or stopped): the fetch stops, as a retryable FETCH_TIMEOUT. */
  signal?: AbortSignal;
}

const maxRedirects = 5;

/**
 * Addresses a server must not reach on a user's behalf: this host, private networks, link-local (cloud metadata
 * at 169.254.169.254 and fd00:ec2::254), carrier-grade NAT, multicast, documentation and reserved ranges, and the
 * IPv6 forms that embed an IPv4 address (mapped, compatible, NAT64), which could smuggle any of those.
 */
const forbiddenAddresses = (() => {
  const list = new BlockList();
  for (const [network, prefix] of [
    ["0.0.0.0", 8],
    ["10.0.0.0", 8],
    ["100.64.0.0", 10],
    ["127.0.0.0", 8],
    ["169.254.0.0", 16],
    ["172.16.0.0", 12],
    ["192.0.0.0", 24],
    ["192.0.2.0", 24],
    ["192.168.0.0", 16],
    ["198.18.0.0", 15],
    ["198.51.100.0", 24],
    ["203.0.113.0", 24],
    ["224.0.0.0", 4],
    ["240.0.0.0", 4],
  ] as const) {
    list.addSubnet(network, prefix, "ipv4");
  }
  for (const [network, prefix] of [
    // IPv4-mapped addresses (::ffff:a.b.c.d) are checked against the IPv4 rules by BlockList itself.
    ["::", 96],
    ["64:ff9b::", 96],
    ["64:ff9b:1::", 48],
    ["100::", 64],
    ["2001:db8::", 32],
    ["fc00::", 7],
    ["fe80::", 10],
    ["fec0::", 10],
    ["ff00::", 8],
  ] as const) {
    list.addSubnet(network, prefix, "ipv6");
  }
  return list;
})();

export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return forbiddenAddresses.check(address, family === 4 ? "ipv4" : "ipv6");
}

/** The address to connect to for `url`: resolved once and checked, so a DNS rebind cannot change it afterwards. */
export async function checkedAddress(url: URL, options: Pick<SafeFetchOptions, "allowHosts">): Promise<LookupAddress> {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new SourceFetchError("FETCH_ERROR", `Only http and https URLs can be fetched (got ${url.protocol})`);
  }
  if (url.username || url.password) throw new SourceFetchError("FETCH_ERROR", "URLs with credentials are refused");
  const hostname = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  let addresses: LookupAddress[];
  try {
    addresses = isIP(hostname)
      ? [{ address: hostname, family: isIP(hostname) }]
      : await lookup(hostname, { all: true });
  } catch (error) {
    // A name that does not exist stays so; a resolver that failed (EAI_AGAIN, a timeout) may answer later.
    const missing = ["ENOTFOUND", "ENODATA"].includes((error as NodeJS.ErrnoException).code ?? "");
    throw new SourceFetchError("FETCH_ERROR", `The host ${hostname} could not be resolved`, !missing);
  }
  const first = addresses[0];
  if (!first) throw new SourceFetchError("FETCH_ERROR", `The host ${hostname} has no address`);
  if (options.allowHosts.includes(hostname)) return first;
  // Every address must be public: a host answering one private address among public ones is refused too.
  if (addresses.some((candidate) => isForbiddenAddress(candidate.address))) {
    throw new SourceFetchError("FETCH_ERROR", `The host ${hostname} resolves to an address that cannot be fetched`);
  }
  return first;
}

interface Hop {
  status: number;
  location: string | undefined;
  body: Buffer;
}

function requestOnce(url: URL, address: LookupAddress, options: SafeFetchOptions, signal: AbortSignal): Promise<Hop> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === "https:" ? https : http;
    const request = client.request(
      url,
      {
        method: "GET",
        signal,
        headers: { accept: "application/json, application/yaml, text/yaml, */*" },
        // Connect to the address checked above, whatever DNS answers now.
        lookup: (_hostname, lookupOptions, callback) => {
          if (lookupOptions.all) callback(null, [address]);
          else callback(null, address.address, address.family);
        },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          response.resume();
          resolve({ status, location: response.headers.location, body: Buffer.alloc(0) });
          return;
        }
        const declared = Number(response.headers["content-length"] ?? "0");
        if (declared > options.maxBytes) {
          response.destroy();
          reject(new SourceFetchError("FETCH_ERROR", `The source is larger than ${options.maxBytes} bytes`));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > options.maxBytes) {
            response.destroy();
            reject(new SourceFetchError("FETCH_ERROR", `The source is larger than ${options.maxBytes} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        response.on("end", () => resolve({ status, location: undefined, body: Buffer.concat(chunks) }));
        response.on("error", reject);
      },
    );
    request.on("socket", (socket) => {
      if (!socket.connecting) return;
      const connecting = setTimeout(() => {
        const message = `The source did not accept a connection within ${options.connectTimeoutMs} ms`;
        request.destroy(new SourceFetchError("FETCH_TIMEOUT", message, true));
      }, options.connectTimeoutMs);
      socket.once(url.protocol === "https:" ? "secureConnect" : "connect", () => clearTimeout(connecting));
      socket.once("close", () => clearTimeout(connecting));
    });
    request.on("error", reject);
    request.end();
  });
}

/**
 * GETs `source` the way a server fetching on a user's behalf must: http(s) only, every address (and every redirect
 * hop) checked after DNS resolution unless its host is in the allow-list, within a connect deadline, a total deadline
 * and a size limit.
 */
export async function safeFetchText(source: string, options: SafeFetchOptions): Promise<string> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  const stop = () => controller.abort();
  options.signal?.addEventListener("abort", stop, { once: true });
  try {
    options.signal?.throwIfAborted();
    let url = new URL(source);
    for (let hop = 0; hop <= maxRedirects; hop++) {
      const address = await untilAborted(checkedAddress(url, options), controller.signal);
      const response = await requestOnce(url, address, options, controller.signal);
      if (response.status >= 300 && response.status < 400) {
        if (!response.location) throw new SourceFetchError("FETCH_ERROR", `HTTP ${response.status} without Location`);
        url = new URL(response.location, url);
        continue;
      }
      if (response.status < 200 || response.status >= 300) {
        throw new SourceFetchError(
          "FETCH_ERROR",
          `The source answered HTTP ${response.status}`,
          response.status >= 500 || response.status === 429,
        );
      }
      return response.body.toString("utf8");
    }
    throw new SourceFetchError("FETCH_ERROR", `More than ${maxRedirects} redirects`);
  } catch (error) {
    if (options.signal?.aborted) {
      const reason = options.signal.reason instanceof Error ? options.signal.reason.message : "aborted";
      throw new SourceFetchError("FETCH_TIMEOUT", `The fetch was stopped: ${reason}`, true);
    }
    if (controller.signal.aborted) throw timeoutError(options);
    if (error instanceof SourceFetchError) throw error;
    throw new SourceFetchError("FETCH_ERROR", `The source could not be fetched: ${(error as Error).message}`, true);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", stop);
  }
}

/** DNS lookups cannot be cancelled: stop waiting for one when the time is up. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(new Error("aborted"));
    if (signal.aborted) onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** Not retryable: a source that accepts and then answers this slowly would hold a job worker at every attempt. */
function timeoutError(options: SafeFetchOptions) {
  return new SourceFetchError("FETCH_TIMEOUT", `The source did not answer within ${options.timeoutMs} ms`);
}
