import type { ObjectRef, OutputRef } from "@pothos/core";
import { userErrorDescriptions } from "../lib/error-codes.ts";
import type {
  ConflictError,
  ForbiddenError,
  InvalidInputError,
  LimitReachedError,
  NotFoundError,
  UnauthenticatedError,
} from "../lib/errors.ts";
import { builder } from "./builder.ts";
import type { MutationErrors } from "./mutation-errors.ts";
import type { UserError } from "./user-errors.ts";

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;

/**
 * A payload field's GraphQL type: the object it holds (typed by its shape), an id or a text (or a list of ids), a
 * position or a flag.
 */
interface PayloadField<Value> {
  type: [Value] extends [string]
    ? "ID" | "String"
    : [Value] extends [string[]]
      ? ["ID"]
      : [Value] extends [number]
        ? "Int"
        : [Value] extends [boolean]
          ? "Boolean"
          : OutputRef<Value>;
  description: string;
}

/** `CreateSite` for `createSite`: the prefix of its payload's and user error's type names. */
function typePrefix(mutation: string): string {
  return `${mutation.charAt(0).toUpperCase()}${mutation.slice(1)}`;
}

/**
 * `<Mutation>UserError` and its code enum. The enum's values here are placeholders: the schema conventions set the
 * user error codes among those the mutation declares when the schema is built (it is declared after this runs).
 */
function userErrorType(mutation: string) {
  const prefix = typePrefix(mutation);
  const codeEnum = builder.enumType(`${prefix}UserErrorCode`, {
    description: `Why \`${mutation}\` refused its input.`,
    values: Object.fromEntries(
      Object.entries(userErrorDescriptions).map(([code, description]) => [code, { description }]),
    ),
    extensions: { userErrorCodesOf: mutation },
  });
  return builder.objectRef<UserError>(`${prefix}UserError`).implement({
    description: `A failure of \`${mutation}\` the caller can fix by changing its input.`,
    fields: (t) => ({
      field: t.exposeStringList("field", {
        nullable: true,
        description: 'Path of the input value to fix (`["input", "title"]`); null when no single value is at fault.',
      }),
      message: t.exposeString("message", { description: "What is wrong, in English." }),
      code: t.field({ type: codeEnum, description: "What is wrong, as a code.", resolve: (error) => error.code }),
    }),
  });
}

/**
 * The payload type of one mutation: each key of `Shape` is a field, declared with its GraphQL type and description,
 * read from the object the resolver returns. Relay clients select what changed (and a new node's edge, or a deleted
 * node's id) from it instead of refetching. Every payload also has `userErrors` (the schema conventions answer them
 * when the mutation fails on its input); the other fields are null then, so all are nullable.
 */
export function payloadType<Shape extends object>(
  mutation: string,
  fields: { [Key in keyof Shape & string]-?: PayloadField<NonNullable<Shape[Key]>> },
): ObjectRef<Types, Shape> {
  const ref = builder.objectRef<Shape>(`${typePrefix(mutation)}Payload`);
  const userError = userErrorType(mutation);
  ref.implement({
    description: `What \`${mutation}\` changed.`,
    fields: (t) => ({
      ...Object.fromEntries(
        Object.entries(fields).map(([key, field]) => {
          const { type, description } = field as PayloadField<unknown>;
          return [
            key,
            t.field({
              type: type as ObjectRef<Types, unknown>,
              nullable: true,
              description: `${description} Null when \`userErrors\` lists why it failed.`,
              resolve: (payload) => (payload as Record<string, unknown>)[key] as never,
            }),
          ];
        }),
      ),
      userErrors: t.field({
        type: [userError],
        description:
          "The caller's input the mutation refused, each value to fix with its path and code; empty on success. " +
          "Selecting this field asks for these failures as data; without it they come as top-level errors.",
        resolve: (payload) => (payload as { userErrors?: UserError[] }).userErrors ?? [],
      }),
    }),
  });
  return ref;
}

/** The codes the services' errors carry (src/lib/errors.ts). */
type ServiceErrorCode = (
  | UnauthenticatedError
  | InvalidInputError
  | ForbiddenError
  | NotFoundError
  | ConflictError
  | LimitReachedError
)["code"];

/** A mutation field's options for its errors: its summary, and the codes it can answer as data. */
interface MutationErrorOptions {
  description: string;
  extensions: { errors: MutationErrors };
}

/**
 * A mutation's summary and the public error codes it can answer (`extensions.code`) and when, as data: every mutation
 * needs a signed-in caller, so UNAUTHENTICATED comes first. Spread into the field's options; the schema conventions
 * print the codes in its description and answer those a user can fix as `userErrors`.
 */
export function describeMutation(
  summary: string,
  errors: Partial<Record<ServiceErrorCode, string>>,
): MutationErrorOptions {
  return { description: summary, extensions: { errors: { UNAUTHENTICATED: "no valid token", ...errors } } };
}
