import type { Logger } from "../platform/logger.ts";
import type { Metrics } from "../platform/metrics.ts";
import { requestTraceId } from "../platform/tracing.ts";
import type { Middleware } from "./pipeline.ts";
import { probePaths } from "./probes.ts";

/**
 * Every request's metrics and log line. Shed requests are counted, not logged one by one: a line each would cost the
 * overloaded process most; one line a second says how many were refused.
 */
export function observeRequests(metrics: Metrics, logger: Logger): Middleware {
  let shedLoggedAt = Number.NEGATIVE_INFINITY;
  let shedSinceLog = 0;
  function noteShed(reason: string) {
    shedSinceLog++;
    const now = performance.now();
    if (now - shedLoggedAt < 1000) return;
    logger.warn("overloaded: requests refused with 503", { refused: shedSinceLog, reason });
    shedLoggedAt = now;
    shedSinceLog = 0;
  }

  return async (exchange, next) => {
    const started = performance.now();
    const response = await next(exchange);
    const { request, url, labels, requestId } = exchange;
    const seconds = (performance.now() - started) / 1000;
    // Field by field, not `{ ...labels }`: the spread's clone kept ~113 KB alive across every young collection,
    // promoted to the old generation whatever the request (docs/performance.md, "Why small reads leave the heap full").
    const { route, operation } = labels;
    metrics.observeRequest({ route, operation, method: request.method, status: response.status, seconds });
    if (exchange.shed) {
      noteShed(exchange.shed);
      return response;
    }
    (probePaths.has(url.pathname) ? logger.probe : logger.request)({
      requestId,
      method: request.method,
      path: url.pathname,
      status: response.status,
      durationMs: Math.round(seconds * 10_000) / 10,
      traceId: requestTraceId(request.method, labels.route, labels.operation),
    });
    return response;
  };
}
