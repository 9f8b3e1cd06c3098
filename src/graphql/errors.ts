import { type ASTNode, GraphQLError } from "graphql";
import { type ErrorCode, publicMessageOf, statusOf } from "../lib/error-codes.ts";
import { type DomainError, domainErrorFrom, retryAfterOf } from "../lib/errors.ts";

/**
 * A GraphQL error of the kind `code` (src/lib/error-codes.ts): `extensions.code` and the kind's `status`, then what
 * else the answer carries (GraphQL over HTTP's `http`, a 503's `retryAfter`).
 */
export function codedError(
  code: ErrorCode,
  message: string,
  options: {
    nodes?: readonly ASTNode[] | undefined;
    path?: readonly (string | number)[] | undefined;
    extensions?: Record<string, unknown>;
  } = {},
): GraphQLError {
  return new GraphQLError(message, {
    nodes: options.nodes,
    path: options.path,
    extensions: { code, status: statusOf(code), ...options.extensions },
  });
}

/**
 * The domain error behind a GraphQL error, if any (resolvers wrap thrown errors in GraphQLError); unique violations
 * count as conflicts (`domainErrorFrom`), the one place that maps them for GraphQL and REST.
 */
function domainErrorOf(error: unknown): DomainError | undefined {
  let current: unknown = error;
  while (current instanceof Error) {
    const domain = domainErrorFrom(current);
    if (domain) return domain;
    current = current instanceof GraphQLError ? current.originalError : current.cause;
  }
  return undefined;
}

/**
 * Domain errors keep their message with `extensions.code`; so do the request's own errors (syntax, validation,
 * variables), with a code added where graphql-js gave none. Everything else becomes a masked error whose only detail
 * is the request id to find it in the log. Every error a client sees carries `extensions.code`.
 */
export function maskError(error: unknown, requestId: string, log: (error: unknown) => void): GraphQLError {
  const domain = domainErrorOf(error);
  const graphQLError = error instanceof GraphQLError ? error : undefined;
  if (domain) {
    return codedError(domain.code, domain.message, {
      nodes: graphQLError?.nodes,
      path: graphQLError?.path,
      // A 503 says when to come back, as REST's Retry-After does (the response carries that header too: retry-after.ts).
      extensions: { retryAfter: retryAfterOf(domain) },
    });
  }
  // graphql-jit keeps a scalar's refusal of a variable's value (`DateTime`) as the original error of its own.
  const refusedVariable = !graphQLError?.path && graphQLError?.originalError instanceof GraphQLError;
  if (graphQLError && (!graphQLError.originalError || refusedVariable)) {
    // graphql-jit's errors may have no `extensions` at all.
    if (graphQLError.extensions?.code !== undefined) return graphQLError;
    // graphql-js's own errors carry no code. Without a path they are about the request (its variables' values):
    // the caller's to fix. With one they arose while executing (a type not resolved, a null where none may be):
    // ours, masked and logged below like any other.
    // Such a result has no data: GraphQL over HTTP asks a 4xx under application/graphql-response+json, and a 200
    // under application/json (yoga reads `http.spec` so).
    if (!graphQLError.path) {
      const code = "BAD_USER_INPUT";
      return new GraphQLError(graphQLError.message, {
        nodes: graphQLError.nodes,
        extensions: {
          ...graphQLError.extensions,
          code,
          status: statusOf(code),
          http: { status: statusOf(code), spec: true },
        },
      });
    }
  }
  log(error);
  const code = "INTERNAL_SERVER_ERROR";
  return new GraphQLError(publicMessageOf(code, ""), {
    nodes: graphQLError?.nodes,
    path: graphQLError?.path,
    extensions: { code, requestId },
  });
}

/** An incremental payload (`@defer`/`@stream`): its own errors and those of each part it delivers. */
interface IncrementalPayload {
  errors?: readonly unknown[];
  incremental?: readonly { errors?: readonly unknown[] }[];
}

/** Masks every error of a payload of an incremental response, as `maskError` masks those of a whole result. */
export function maskIncrementalPayload<Payload extends IncrementalPayload>(
  payload: Payload,
  requestId: string,
  log: (error: unknown) => void,
): Payload {
  const mask = (errors: readonly unknown[]) => errors.map((error) => maskError(error, requestId, log));
  return {
    ...payload,
    ...(payload.errors ? { errors: mask(payload.errors) } : {}),
    ...(payload.incremental
      ? {
          incremental: payload.incremental.map((part) => (part.errors ? { ...part, errors: mask(part.errors) } : part)),
        }
      : {}),
  };
}
