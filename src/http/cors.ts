import { Response } from "@whatwg-node/fetch";
import { restError } from "../web/errors.ts";

/** What a browser page of an allowed origin may send and read (tokens travel as Bearer headers, never cookies). */
const allowedMethods = "GET, POST, PUT, PATCH, DELETE";
const allowedHeaders = "Authorization, Content-Type, Accept, Idempotency-Key, X-Request-Id";
const exposedHeaders =
  "X-Request-Id, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, Idempotent-Replayed";

export interface Cors {
  /** The answer to a preflight (`OPTIONS`): allowed for the configured origins only, else 403. */
  preflight(request: Request): Response;
  /** Lets an allowed origin read `response`; other origins get no CORS header, so browsers keep it from them. */
  decorate(request: Request, response: Response): void;
}

/** CORS for the API (`/graphql`, `/v1`): off unless origins are configured, and then only for exactly those. */
export function createCors(origins: readonly string[]): Cors {
  const allowed = new Set(origins);
  const allowedOrigin = (request: Request) => {
    const origin = request.headers.get("origin");
    return origin !== null && allowed.has(origin) ? origin : undefined;
  };
  return {
    preflight(request) {
      const origin = allowedOrigin(request);
      if (!origin) return restError("FORBIDDEN", "Cross-origin requests from this origin are not allowed");
      return new Response(null, {
        status: 204,
        headers: {
          "access-control-allow-origin": origin,
          "access-control-allow-methods": allowedMethods,
          "access-control-allow-headers": allowedHeaders,
          "access-control-max-age": "600",
          vary: "Origin",
        },
      });
    },
    decorate(request, response) {
      // The answer depends on Origin whenever CORS is on: a shared cache must not hand one origin's copy to another.
      if (allowed.size > 0) response.headers.append("vary", "Origin");
      const origin = allowedOrigin(request);
      if (!origin) return;
      response.headers.set("access-control-allow-origin", origin);
      response.headers.set("access-control-expose-headers", exposedHeaders);
    },
  };
}
