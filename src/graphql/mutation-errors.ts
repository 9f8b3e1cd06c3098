import type { ErrorCode } from "../lib/error-codes.ts";

/**
 * The error codes a mutation declares it can answer (`extensions.code`, src/lib/error-codes.ts), each with when, in
 * the order its description lists them: its field's `extensions.errors`.
 */
export type MutationErrors = Partial<Record<ErrorCode, string>>;

/** A mutation field's declared error codes, from its `extensions`; undefined for a field that declares none. */
export function mutationErrorsOf(extensions: unknown): MutationErrors | undefined {
  return (extensions as { errors?: MutationErrors } | null | undefined)?.errors;
}

/** A mutation's description as printed: its summary, then each declared code with when (`Errors: CODE (when), ...`). */
export function describedWithErrors(summary: string, errors: MutationErrors): string {
  const codes = Object.entries(errors).map(([code, when]) => `${code} (${when})`);
  return `${summary} Errors: ${codes.join(", ")}.`;
}
