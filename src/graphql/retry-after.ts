import type { ExecutionResult } from "graphql";
import type { Plugin } from "graphql-yoga";
import { unavailableRetrySeconds } from "../lib/error-codes.ts";

/**
 * A GraphQL answer whose errors include SERVICE_UNAVAILABLE (the database down, the workers saturated) carries
 * `Retry-After`, as REST's 503 does: the longest `extensions.retryAfter` of those errors (src/graphql/errors.ts).
 * The status stays 200, as GraphQL over HTTP wants for an answer with errors. Incremental (@defer/@stream)
 * answers sent their headers with their first part and get none.
 */
export function retryAfterPlugin(): Plugin {
  const retryAfter = new WeakMap<Request, number>();
  return {
    onResultProcess({ request, result }) {
      const seconds = retryAfterSeconds(result);
      if (seconds !== undefined) retryAfter.set(request, seconds);
    },
    onResponse({ request, response }) {
      const seconds = retryAfter.get(request);
      if (seconds !== undefined) response.headers.set("Retry-After", String(seconds));
    },
  };
}

/** The seconds a result (or a batch's results) asks the client to wait before retrying; undefined for none. */
export function retryAfterSeconds(result: unknown): number | undefined {
  if (typeof result !== "object" || result === null || Symbol.asyncIterator in result) return undefined;
  let seconds: number | undefined;
  for (const single of (Array.isArray(result) ? result : [result]) as ExecutionResult[]) {
    for (const error of single.errors ?? []) {
      if (error.extensions?.code !== "SERVICE_UNAVAILABLE") continue;
      const wanted = Number(error.extensions.retryAfter) || unavailableRetrySeconds;
      seconds = Math.max(seconds ?? 0, wanted);
    }
  }
  return seconds;
}
