import { type GraphQLResolveInfo, Kind, type SelectionSetNode } from "graphql";
import { type UserErrorCode, userErrorDescriptions } from "../lib/error-codes.ts";
import { type DomainError, domainErrorFrom, InvalidInputError } from "../lib/errors.ts";
import { mutationErrorsOf } from "./mutation-errors.ts";

/**
 * Errors as data (Shopify's `userErrors`, Apollo's errors-as-data): the failures a user can fix from the form they
 * filled in, the error kinds with a `userError` description in the error table (src/lib/error-codes.ts).
 * Authentication, authorization, a missing or hidden object and unexpected failures stay top-level errors: nothing in
 * the input fixes them.
 */
const isUserErrorCode = (code: string): code is UserErrorCode => Object.hasOwn(userErrorDescriptions, code);

/** One failure as data: where in the arguments (`["input", "title"]`), what, and its code. */
export interface UserError {
  field: string[] | null;
  message: string;
  code: UserErrorCode;
}

/** The user error codes among a mutation's error codes; any invalid input is the caller's to fix, listed or not. */
export function userErrorCodesAmong(codes: readonly string[]): UserErrorCode[] {
  return [...new Set(["BAD_USER_INPUT" as const, ...codes.filter(isUserErrorCode)])];
}

/** A mutation field's user error codes, among the codes its `extensions` declare (src/graphql/mutation-errors.ts). */
export function mutationUserErrorCodes(extensions: unknown): readonly UserErrorCode[] {
  return userErrorCodesAmong(Object.keys(mutationErrorsOf(extensions) ?? {}));
}

/**
 * An input path as the caller wrote it: every mutation takes one `input` (src/graphql/mutation-input.ts) holding
 * the arguments its module declared and its declared input's fields, so the services' paths (inside the declared
 * input, or starting with an argument's name) all start inside `input`.
 */
function inputPath(path: readonly PropertyKey[]): string[] {
  return ["input", ...path.map(String)];
}

/** `error` as user errors when its code is one of `codes`: one per invalid value, each with its path. */
function userErrorsOf(error: DomainError, codes: readonly UserErrorCode[]): UserError[] | undefined {
  const code = error.code;
  if (!isUserErrorCode(code) || !codes.includes(code)) return undefined;
  if (error instanceof InvalidInputError && error.issues.length > 0) {
    return error.issues.map((issue) => ({
      field: inputPath(issue.path),
      message: issue.message,
      code,
    }));
  }
  return [{ field: null, message: error.message, code }];
}

function selectionSelects(info: GraphQLResolveInfo, selectionSet: SelectionSetNode | undefined, name: string): boolean {
  return (selectionSet?.selections ?? []).some((selection) => {
    if (selection.kind === Kind.FIELD) return selection.name.value === name;
    const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : info.fragments[selection.name.value];
    return selectionSelects(info, fragment?.selectionSet, name);
  });
}

/**
 * Runs a mutation's resolver, answering its user-fixable failures as `{ userErrors }` (every other payload field
 * null) when the operation selects `userErrors`. An operation that does not select them gets the failure as a
 * top-level error, as before: it would otherwise read a null result with no reason. The REST routes' documents do
 * not select them, so REST answers each failure with the same status and body as ever.
 */
export function withUserErrors<Parent, Args, Context>(
  resolve: (parent: Parent, args: Args, ctx: Context, info: GraphQLResolveInfo) => unknown,
  codes: readonly UserErrorCode[],
) {
  return async (parent: Parent, args: Args, ctx: Context, info: GraphQLResolveInfo) => {
    try {
      return await resolve(parent, args, ctx, info);
    } catch (error) {
      const domain = domainErrorFrom(error);
      const userErrors = domain && userErrorsOf(domain, codes);
      if (!userErrors || !info.fieldNodes.some((node) => selectionSelects(info, node.selectionSet, "userErrors"))) {
        throw error;
      }
      return { userErrors };
    }
  };
}
