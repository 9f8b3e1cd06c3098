/**
 * Domain errors raised by services. GraphQL shows `code` in `extensions.code`; REST answers `status` with the
 * public error body. Anything else thrown is unexpected and reaches callers only as a masked 500.
 */
export abstract class DomainError extends Error {
  abstract readonly status: number;
  abstract readonly code: string;
}

export class InvalidInputError extends DomainError {
  readonly status = 400;
  readonly code = "BAD_USER_INPUT";
}

export class UnauthenticatedError extends DomainError {
  readonly status = 401;
  readonly code = "UNAUTHENTICATED";
  constructor(message = "A valid API token is required (Authorization: Bearer <token>)") {
    super(message);
  }
}

export class ForbiddenError extends DomainError {
  readonly status = 403;
  readonly code = "FORBIDDEN";
}

export class NotFoundError extends DomainError {
  readonly status = 404;
  readonly code = "NOT_FOUND";
}

export class ConflictError extends DomainError {
  readonly status = 409;
  readonly code = "CONFLICT";
}

/**
 * A per-user allowance is used up (active API tokens): the caller must free one first. 409, not 429: waiting does not
 * help, revoking does.
 */
export class LimitReachedError extends DomainError {
  readonly status = 409;
  constructor(
    readonly code: "TOO_MANY_API_TOKENS",
    message: string,
  ) {
    super(message);
  }
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
 * The domain error `error` stands for: itself, or a 409 for a unique violation. Two requests that both passed a
 * "not taken yet" check race to the database's unique index, and the loser is told what a sequential caller is.
 */
export function domainErrorFrom(error: unknown): DomainError | undefined {
  if (error instanceof DomainError) return error;
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
 * For `node`/`nodes`: for each id, its row (among `rows`, found by id) as the type's own by-id lookup `read`
 * answers it, and null where the id is missing or that lookup refuses (another organization's, too low a role, not
 * signed in): a node is visible exactly where its by-id read is. Unexpected errors still throw.
 */
export function nullWhereRefused<Row extends { id: string }, T>(
  ids: readonly string[],
  rows: readonly (Row | null | Error)[],
  read: (row: Row) => Promise<T | null>,
): Promise<(T | null)[]> {
  const byId = new Map<string, Row>();
  for (const row of rows) if (row && !(row instanceof Error)) byId.set(row.id, row);
  return Promise.all(
    ids.map(async (id) => {
      const row = byId.get(id);
      try {
        return row ? await read(row) : null;
      } catch (error) {
        if (error instanceof DomainError) return null;
        throw error;
      }
    }),
  );
}
