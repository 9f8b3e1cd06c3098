import { unavailableRetrySeconds } from "../lib/error-codes.ts";
import { domainErrorFrom } from "../lib/errors.ts";
import type { LogUnexpected } from "../web/call.ts";
import { restError } from "../web/errors.ts";
import type { Middleware } from "./pipeline.ts";
import { refusal } from "./refusal.ts";

/** An error no route answered: an outage (503, the client may retry) or unexpected (500, logged with the request id). */
export function errorBoundary(logUnexpected: LogUnexpected): Middleware {
  return async (exchange, next) => {
    try {
      return await next(exchange);
    } catch (error) {
      const domain = domainErrorFrom(error);
      if (domain?.code === "SERVICE_UNAVAILABLE") {
        // An outage met before the GraphQL pipeline (the token's read): on /graphql a GraphQL answer all the same.
        return refusal(exchange, domain.code, domain.message, {
          "Retry-After": String(unavailableRetrySeconds),
        });
      }
      logUnexpected(exchange.requestId)(error);
      return restError("INTERNAL_SERVER_ERROR", "Unexpected error.");
    }
  };
}
