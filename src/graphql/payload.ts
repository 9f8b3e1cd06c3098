import type { ObjectRef, OutputRef } from "@pothos/core";
import type {
  ConflictError,
  ForbiddenError,
  InvalidInputError,
  LimitReachedError,
  NotFoundError,
  UnauthenticatedError,
} from "../lib/errors.ts";
import { builder } from "./builder.ts";

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;

/** A payload field's GraphQL type: the object it holds (typed by its shape), an id or a text, a position or a flag. */
interface PayloadField<Value> {
  type: [Value] extends [string]
    ? "ID" | "String"
    : [Value] extends [number]
      ? "Int"
      : [Value] extends [boolean]
        ? "Boolean"
        : OutputRef<Value>;
  description: string;
  /** Whether the field may be null (an object that may no longer exist, a position the model does not have). */
  nullable?: boolean;
}

/** `CreateSitePayload` for `createSite`: Relay's convention, one payload type per mutation. */
function payloadName(mutation: string): string {
  return `${mutation.charAt(0).toUpperCase()}${mutation.slice(1)}Payload`;
}

/**
 * The payload type of one mutation: each key of `Shape` is a field, declared with its GraphQL type and description,
 * read from the object the resolver returns. Relay clients select what changed (and a new node's edge, or a deleted
 * node's id) from it instead of refetching.
 */
export function payloadType<Shape extends object>(
  mutation: string,
  fields: { [Key in keyof Shape & string]-?: PayloadField<NonNullable<Shape[Key]>> },
): ObjectRef<Types, Shape> {
  const ref = builder.objectRef<Shape>(payloadName(mutation));
  ref.implement({
    description: `What \`${mutation}\` changed.`,
    fields: (t) =>
      Object.fromEntries(
        Object.entries(fields).map(([key, field]) => {
          const { type, description, nullable = false } = field as PayloadField<unknown>;
          return [
            key,
            t.field({
              type: type as ObjectRef<Types, unknown>,
              nullable,
              description,
              resolve: (payload) => (payload as Record<string, unknown>)[key] as never,
            }),
          ];
        }),
      ),
  });
  return ref;
}

/** The codes the services' errors carry (src/lib/errors.ts). */
type ErrorCode = (
  | UnauthenticatedError
  | InvalidInputError
  | ForbiddenError
  | NotFoundError
  | ConflictError
  | LimitReachedError
)["code"];

/**
 * A mutation's description with the public error codes it can answer (`extensions.code`) and when: every mutation
 * needs a signed-in caller, so UNAUTHENTICATED comes first in each list.
 */
export function describeMutation(summary: string, errors: Partial<Record<ErrorCode, string>>): string {
  const listed = { UNAUTHENTICATED: "no valid token", ...errors };
  const codes = Object.entries(listed).map(([code, when]) => `${code} (${when})`);
  return `${summary} Errors: ${codes.join(", ")}.`;
}
