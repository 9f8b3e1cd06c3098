import { type ErrorCode, retryAfterSecondsOf, statusOf } from "./error-codes.ts";

/**
 * Domain errors raised by services. GraphQL shows `code` in `extensions.code`; REST answers the code's status
 * (src/lib/error-codes.ts) with the public error body. Anything else thrown is unexpected and reaches callers only as
 * a masked 500.
 */
export abstract class DomainError extends Error {
  abstract readonly code: ErrorCode;
  /** A 503's: when to come back (the table's default unless the error knows better). */
  readonly retryAfterSeconds?: number;

  get status(): number {
    return statusOf(this.code);
  }
}

/** The seconds a client should wait before retrying what failed with `error`; undefined unless its kind says. */
export function retryAfterOf(error: DomainError): number | undefined {
  const byDefault = retryAfterSecondsOf(error.code);
  return byDefault === undefined ? undefined : (error.retryAfterSeconds ?? byDefault);
}

/** One invalid value of an input: its path inside the validated input, and what is wrong with it. */
export interface InputIssue {
  path: readonly PropertyKey[];
  message: string;
}

export class InvalidInputError extends DomainError {
  readonly code = "BAD_USER_INPUT";
  /** Every invalid value, for GraphQL's `userErrors`; the message words the first few for REST. */
  constructor(
    message: string,
    readonly issues: readonly InputIssue[] = [],
  ) {
    super(message);
  }
}

export class UnauthenticatedError extends DomainError {
  readonly code = "UNAUTHENTICATED";
  constructor(message = "A valid API token is required (Authorization: Bearer <token>)") {
    super(message);
  }
}

export class ForbiddenError extends DomainError {
  readonly code = "FORBIDDEN";
}

export class NotFoundError extends DomainError {
  readonly code = "NOT_FOUND";
}

export class ConflictError extends DomainError {
  readonly code = "CONFLICT";
}

/** A per-user allowance is used up (active API tokens): the caller must free one first. */
export class LimitReachedError extends DomainError {
  constructor(
    readonly code: "TOO_MANY_API_TOKENS",
    message: string,
  ) {
    super(message);
  }
}

/**
 * The database cannot be reached or dropped the connection (see `isDatabaseUnavailable`): nothing is known about the
 * data, so callers are told to come back (with Retry-After) rather than that something is missing.
 */
class ServiceUnavailableError extends DomainError {
  readonly code = "SERVICE_UNAVAILABLE";
  constructor(message = "The service is temporarily unavailable; retry shortly") {
    super(message);
  }
}

/** Socket errors of a connection that could not be made or was lost (Node's codes, as `pg` passes them on). */
const socketCodes = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "EAI_AGAIN",
]);

/**
 * Prisma's codes for the same: P1001 cannot reach the server, P1002/P1008 timed out, P1017 the server closed the
 * connection, P2024 no pool connection in time, P2037 too many connections.
 */
const prismaCodes = new Set(["P1001", "P1002", "P1008", "P1017", "P2024", "P2037"]);

/** Prisma's driver-adapter error kinds for the same. */
const adapterKinds = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);

/**
 * PostgreSQL's SQLSTATEs for the same: class 08 (connection exception), 57P01-57P03 (terminated by an administrator,
 * crash shutdown, cannot connect now), 53300 (too many connections), and the bounds every request statement runs
 * under (src/db/database.ts): 55P03 (lock_timeout) and 57014 (statement_timeout, or a cancel).
 */
const unavailableSqlState = (code: string) =>
  code.startsWith("08") || /^57P0[1-3]$/.test(code) || ["53300", "55P03", "57014"].includes(code);

/**
 * Messages of the drivers' connection errors that carry no code: `pg`'s lost connection and pool time-out or ended
 * pool, PGlite closed.
 */
const unavailableMessage =
  /^(Connection terminated|timeout exceeded when trying to connect|Cannot use a pool after calling end on the pool|PGlite is closed)/;

/**
 * Whether `error`, or an error it wraps (`cause`, Prisma's driver-adapter error), says the database is unreachable or
 * the connection broke, rather than anything about a statement: the driver's socket codes, PostgreSQL's connection
 * SQLSTATEs, Prisma's connection codes and adapter kinds, and the drivers' connection messages.
 */
function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const pending: unknown[] = [error];
  while (pending.length > 0) {
    const current = pending.pop();
    if (typeof current !== "object" || current === null || seen.has(current)) continue;
    seen.add(current);
    const { code, kind, message, cause, meta, originalCode, originalError } = current as Record<string, unknown>;
    if (typeof code === "string" && (socketCodes.has(code) || prismaCodes.has(code) || unavailableSqlState(code))) {
      return true;
    }
    if (typeof originalCode === "string" && (socketCodes.has(originalCode) || unavailableSqlState(originalCode))) {
      return true;
    }
    if (typeof kind === "string" && adapterKinds.has(kind)) return true;
    if (typeof message === "string" && unavailableMessage.test(message)) return true;
    const adapterError = (meta as { driverAdapterError?: unknown } | undefined)?.driverAdapterError;
    pending.push(cause, originalError, adapterError);
  }
  return false;
}

/**
 * Whether `error` is PostgreSQL's unique violation (23505): Prisma's P2002, a raw query's P2010 that carries it,
 * or the driver's own error from hand-written SQL.
 */
function isUniqueViolation(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { code, meta } = error as Error & { code?: unknown; meta?: { driverAdapterError?: { cause?: unknown } } };
  if (code === "P2002" || code === "23505") return true;
  const cause = meta?.driverAdapterError?.cause as { originalCode?: unknown } | undefined;
  return code === "P2010" && cause?.originalCode === "23505";
}

/**
 * The domain error `error` stands for: itself, a 503 for a database outage, or a 409 for a unique violation. Two
 * requests that both passed a "not taken yet" check race to the database's unique index, and the loser is told what
 * a sequential caller is.
 */
export function domainErrorFrom(error: unknown): DomainError | undefined {
  if (error instanceof DomainError) return error;
  if (isDatabaseUnavailable(error)) return new ServiceUnavailableError();
  if (isUniqueViolation(error)) {
    return new ConflictError("This conflicts with an existing item: a value that must be unique is already taken");
  }
  return undefined;
}

/**
 * Runs `attempt` again (up to `attempts` times in all) when it fails on a unique violation: for writes that choose
 * their own unique value from what they read, so a rerun reads the winner's row and chooses anew.
 */
export async function retryOnUniqueViolation<Result>(attempts: number, attempt: () => Promise<Result>) {
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (tries >= attempts || !isUniqueViolation(error)) throw error;
    }
  }
}

/**
 * A value of a DataLoader's `loadMany`: the row, or null where there is none. A failed load (the database down, a
 * bug) throws: it says nothing about whether the row exists, so it must not read as a missing row (a 404).
 */
export function loadedOrNull<Row>(value: Row | Error | null | undefined): Row | null {
  if (value instanceof Error) throw value;
  return value ?? null;
}

/** Whether `error` is a domain error that refuses access or finds nothing: an answer about the data, not an outage. */
export function isRefusal(error: unknown): error is DomainError {
  return error instanceof DomainError && !(error instanceof ServiceUnavailableError);
}

/**
 * For `node`/`nodes`: for each id, its row (among `rows`, found by id) as the type's own by-id lookup `read`
 * answers it, and null where the id is missing or that lookup refuses (another organization's, too low a role, not
 * signed in): a node is visible exactly where its by-id read is. Failed loads and unexpected errors still throw.
 */
export function nullWhereRefused<Row extends { id: string }, T>(
  ids: readonly string[],
  rows: readonly (Row | null | Error)[],
  read: (row: Row) => Promise<T | null>,
): Promise<(T | null)[]> {
  const byId = new Map<string, Row>();
  for (const value of rows) {
    const row = loadedOrNull(value);
    if (row) byId.set(row.id, row);
  }
  return Promise.all(
    ids.map(async (id) => {
      const row = byId.get(id);
      try {
        return row ? await read(row) : null;
      } catch (error) {
        if (isRefusal(error)) return null;
        throw error;
      }
    }),
  );
}
