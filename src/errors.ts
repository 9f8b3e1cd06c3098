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

export class PreconditionFailedError extends DomainError {
  readonly status = 412;
  readonly code = "PRECONDITION_FAILED";
}
