/**
 * What one kind of error answers, in GraphQL and REST alike. Its key is GraphQL's `extensions.code`; `status` is the
 * HTTP status REST answers (and the public error body's `code`) and the one a GraphQL refusal carries.
 */
interface ErrorKind {
  status: number;
  /**
   * For a failure the caller fixes by changing its input: how a mutation's `userErrors` describe the code. Kinds
   * without it stay top-level errors (nothing in the input fixes them).
   */
  userError?: string;
  /** The only message callers see: the error's own may show internals, so it goes to the log alone. */
  publicMessage?: string;
  /** The answer says when to come back (REST's Retry-After, GraphQL's `extensions.retryAfter`), unless it knows better. */
  retryAfterSeconds?: number;
}

/**
 * Every error kind the API answers, once (docs/architecture.md, "Errors"). The services' errors (src/lib/errors.ts),
 * GraphQL's masking and refusals (src/graphql/), the REST adapter (src/rest/router.ts) and the HTTP layer's own
 * refusals (src/web/errors.ts, src/http/) all read their status, user error description and public message here.
 */
export const errorKinds = {
  BAD_USER_INPUT: { status: 400, userError: "The input is invalid: `field` names the value to fix." },
  /** A request malformed outside its input: no document nor a registered one's id, an unusable Idempotency-Key. */
  BAD_REQUEST: { status: 400 },
  COST_LIMIT_EXCEEDED: { status: 400 },
  PERSISTED_DOCUMENT_NOT_FOUND: { status: 400 },
  TRUSTED_DOCUMENTS_ONLY: { status: 400 },
  UNAUTHENTICATED: { status: 401 },
  FORBIDDEN: { status: 403 },
  NOT_FOUND: { status: 404 },
  /** Apollo's and urql's automatic persisted queries resend the text on exactly this code. */
  PERSISTED_QUERY_NOT_FOUND: { status: 404 },
  METHOD_NOT_ALLOWED: { status: 405 },
  NOT_ACCEPTABLE: { status: 406 },
  REQUEST_TIMEOUT: { status: 408 },
  CONFLICT: {
    status: 409,
    userError: "It conflicts with an existing item or a concurrent change: change the value, or read again and retry.",
  },
  /** 409, not 429: waiting does not help, revoking a token does. */
  TOO_MANY_API_TOKENS: { status: 409, userError: "The allowance of active API tokens is used up: revoke one first." },
  IDEMPOTENCY_KEY_IN_PROGRESS: { status: 409 },
  PAYLOAD_TOO_LARGE: { status: 413 },
  IDEMPOTENCY_KEY_REUSED: { status: 422 },
  /** The same content would fail again, whatever the load: not a 5xx. */
  CONTENT_TOO_COMPLEX: { status: 422 },
  RATE_LIMITED: { status: 429 },
  TOO_MANY_SUBSCRIPTIONS: { status: 429 },
  INTERNAL_SERVER_ERROR: { status: 500, publicMessage: "Unexpected error." },
  /** Long enough for a pool to reconnect or a failover to finish. */
  SERVICE_UNAVAILABLE: { status: 503, retryAfterSeconds: 5 },
} as const satisfies Record<string, ErrorKind>;

export type ErrorCode = keyof typeof errorKinds;

/** The codes a mutation may answer as `userErrors`: the kinds with a `userError` description. */
export type UserErrorCode = {
  [Code in ErrorCode]: (typeof errorKinds)[Code] extends { userError: string } ? Code : never;
}[ErrorCode];

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === "string" && Object.hasOwn(errorKinds, code);
}

/** The HTTP status of a kind of error. */
export function statusOf(code: ErrorCode): number {
  return errorKinds[code].status;
}

/** The message callers see for an error of `code` whose own message is `message`. */
export function publicMessageOf(code: ErrorCode, message: string): string {
  const kind: ErrorKind = errorKinds[code];
  return kind.publicMessage ?? message;
}

/** When to come back after an error of `code`: undefined for kinds that do not say. */
export function retryAfterSecondsOf(code: ErrorCode): number | undefined {
  const kind: ErrorKind = errorKinds[code];
  return kind.retryAfterSeconds;
}

/** When to come back after a 503 for a database outage (the default Retry-After of SERVICE_UNAVAILABLE). */
export const unavailableRetrySeconds = errorKinds.SERVICE_UNAVAILABLE.retryAfterSeconds;

/** The user error codes with their descriptions, in the table's order. */
export const userErrorDescriptions = Object.fromEntries(
  Object.entries(errorKinds).flatMap(([code, kind]: [string, ErrorKind]) =>
    kind.userError === undefined ? [] : [[code, kind.userError]],
  ),
) as Record<UserErrorCode, string>;
