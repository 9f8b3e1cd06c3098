import { Response } from "@whatwg-node/fetch";
import type { PrismaClient } from "../db/generated/client.ts";
import {
  abandonIdempotentRequest,
  finishIdempotentRequest,
  requestHash,
  startIdempotentRequest,
} from "../modules/idempotency/idempotency.public.ts";
import type { Clock } from "../platform/clock.ts";
import { restError } from "../web/errors.ts";

const keyPattern = /^[\x21-\x7e]{1,255}$/;

export interface IdempotentRequest {
  prisma: PrismaClient;
  /** SECRETS_KEY: stored response bodies are encrypted with it. */
  secretsKey: Buffer;
  clock: Clock;
  /** Whose keys these are: the signed-in user, or the client address for anonymous calls. */
  callerKey: string;
  key: string;
  method: string;
  /** Path and query string. */
  target: string;
  body: string;
}

/**
 * Runs `handle` once per caller and `Idempotency-Key`: a retry with the same request replays the stored response,
 * the same key with another request is a 422, and a retry while the first one still runs is a 409. Unexpected
 * failures (5xx) are not stored, so a retry runs again.
 */
export async function withIdempotency(request: IdempotentRequest, handle: () => Promise<Response>): Promise<Response> {
  const { prisma, clock, callerKey, key } = request;
  const store = { prisma, secretsKey: request.secretsKey };
  if (!keyPattern.test(key)) {
    return restError("BAD_REQUEST", "Idempotency-Key must be 1 to 255 printable ASCII characters without spaces");
  }
  const hash = requestHash(request.method, request.target, request.body);
  const start = await startIdempotentRequest(store, callerKey, key, hash, clock.now());
  if (start.kind === "mismatch") {
    return restError(
      "IDEMPOTENCY_KEY_REUSED",
      "This Idempotency-Key was used with another request; use a new key for a new request",
    );
  }
  if (start.kind === "running")
    return restError("IDEMPOTENCY_KEY_IN_PROGRESS", "A request with this Idempotency-Key is still in progress");
  if (start.kind === "replay") {
    return new Response(start.body || null, {
      status: start.status,
      headers: { "content-type": "application/json; charset=utf-8", "Idempotent-Replayed": "true" },
    });
  }
  let response: Response;
  try {
    response = await handle();
  } catch (error) {
    await abandonIdempotentRequest(prisma, callerKey, key);
    throw error;
  }
  if (response.status >= 500) {
    await abandonIdempotentRequest(prisma, callerKey, key);
    return response;
  }
  const body = await response.text();
  await finishIdempotentRequest(store, callerKey, key, { status: response.status, body });
  return new Response(body || null, { status: response.status, headers: response.headers });
}
