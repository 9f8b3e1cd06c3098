import { GraphQLError } from "graphql";
import { describe, expect, it } from "vitest";
import { codedError, maskError } from "../../src/graphql/errors.ts";
import { userErrorCodesAmong } from "../../src/graphql/user-errors.ts";
import {
  type ErrorCode,
  errorKinds,
  isErrorCode,
  publicMessageOf,
  statusOf,
  userErrorDescriptions,
} from "../../src/lib/error-codes.ts";
import {
  ConflictError,
  type DomainError,
  domainErrorFrom,
  ForbiddenError,
  InvalidInputError,
  LimitReachedError,
  NotFoundError,
  UnauthenticatedError,
} from "../../src/lib/errors.ts";
import { restError } from "../../src/web/errors.ts";

const codes = Object.keys(errorKinds) as ErrorCode[];

const domainErrors: DomainError[] = [
  new InvalidInputError("bad"),
  new UnauthenticatedError(),
  new ForbiddenError("no"),
  new NotFoundError("none"),
  new ConflictError("taken"),
  new LimitReachedError("TOO_MANY_API_TOKENS", "full"),
  domainErrorFrom(Object.assign(new Error("down"), { code: "ECONNREFUSED" })) as DomainError,
];

describe("the error table", () => {
  it("gives every code an HTTP error status", () => {
    for (const code of codes) {
      const status = statusOf(code);
      expect(Number.isInteger(status), code).toBe(true);
      expect(status >= 400 && status < 600, `${code}: ${status}`).toBe(true);
    }
  });

  it("knows its codes and no other", () => {
    expect(codes.every(isErrorCode)).toBe(true);
    expect(isErrorCode("GRAPHQL_VALIDATION_FAILED")).toBe(false);
    expect(isErrorCode("toString")).toBe(false);
  });

  it("answers the public error body with the code's status, and Retry-After where the kind says when to come back", async () => {
    for (const code of codes) {
      const response = restError(code, "Some message");
      expect(response.status, code).toBe(statusOf(code));
      const body = await response.json();
      expect(body, code).toEqual({ error: { code: statusOf(code), message: publicMessageOf(code, "Some message") } });
      expect(response.headers.get("Retry-After"), code).toBe(code === "SERVICE_UNAVAILABLE" ? "5" : null);
    }
    expect(restError("SERVICE_UNAVAILABLE", "Busy", { "Retry-After": "2" }).headers.get("Retry-After")).toBe("2");
  });

  it("hides the message of unexpected errors only", () => {
    expect(publicMessageOf("INTERNAL_SERVER_ERROR", "at Prisma.findMany (db.ts:12)")).toBe("Unexpected error.");
    expect(publicMessageOf("NOT_FOUND", "No such space")).toBe("No such space");
  });

  it("gives each service error the status and code GraphQL shows", () => {
    for (const error of domainErrors) {
      expect(error.status, error.code).toBe(statusOf(error.code));
      const masked = maskError(new GraphQLError("wrapped", { originalError: error, path: ["x"] }), "r1", () => {});
      expect(masked.extensions, error.code).toMatchObject({ code: error.code, status: statusOf(error.code) });
      expect(masked.message).toBe(error.message);
    }
  });

  it("masks anything else as INTERNAL_SERVER_ERROR, with the table's public message", () => {
    const logged: unknown[] = [];
    const masked = maskError(new GraphQLError("boom", { originalError: new Error("secret"), path: ["x"] }), "r2", (e) =>
      logged.push(e),
    );
    expect(masked.message).toBe(publicMessageOf("INTERNAL_SERVER_ERROR", ""));
    expect(masked.extensions).toEqual({ code: "INTERNAL_SERVER_ERROR", requestId: "r2" });
    expect(logged).toHaveLength(1);
  });

  it("puts the code's status on GraphQL refusals", () => {
    for (const code of codes) {
      expect(codedError(code, "m").extensions, code).toMatchObject({ code, status: statusOf(code) });
    }
  });

  it("describes exactly the user error codes, and a mutation's user errors are among them", () => {
    expect(Object.keys(userErrorDescriptions)).toEqual(["BAD_USER_INPUT", "CONFLICT", "TOO_MANY_API_TOKENS"]);
    expect(userErrorCodesAmong(["UNAUTHENTICATED", "NOT_FOUND", "CONFLICT"])).toEqual(["BAD_USER_INPUT", "CONFLICT"]);
  });
});
