import type { Config } from "../config.ts";
import { restError } from "../rest/errors.ts";
import { createLoadShedder } from "./load-shedding.ts";
import type { Middleware } from "./pipeline.ts";
import { probePaths } from "./probes.ts";

/** Retry-After of a request shed for load: the overload is measured every 100 ms, so a second is plenty. */
const shedRetrySeconds = 1;

/** Refuses requests past the process's capacity (src/http/load-shedding.ts); probes and metrics always answer. */
export function shedLoad(config: Config): Middleware {
  const shedder = createLoadShedder({
    maxInFlight: config.shedMaxInFlight,
    maxEventLoopDelayMs: config.shedEventLoopDelayMs,
  });
  return async (exchange, next) => {
    if (probePaths.has(exchange.url.pathname)) return next(exchange);
    const admitted = shedder.admit();
    if ("refused" in admitted) {
      exchange.shed = admitted.refused;
      return restError(503, "The server is overloaded; retry shortly", { "Retry-After": String(shedRetrySeconds) });
    }
    exchange.admission = admitted;
    try {
      return await next(exchange);
    } finally {
      admitted.done();
    }
  };
}
