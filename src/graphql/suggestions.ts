import { GraphQLError } from "graphql";
import type { Plugin } from "graphql-yoga";

/**
 * Every "Did you mean ...?" of graphql-js's messages, whatever it suggests: fields (graphql-armor's plugin in
 * limits.ts hides those of validation), enum values (`Did you mean the enum value "X"?`), an input object's fields
 * in a variable's value.
 */
const suggestion = /\s*Did you mean [^?]*\?/g;

/** The mask graphql-armor's field-suggestion plugin writes, so every hidden suggestion reads alike. */
const mask = " [Suggestion hidden]";

function hideIn(errors: readonly unknown[] | undefined): void {
  for (const error of errors ?? []) {
    if (error instanceof GraphQLError && error.message.includes("Did you mean")) {
      error.message = error.message.replace(suggestion, mask);
    }
  }
}

/**
 * Outside development, suggestions describe the schema to whoever probes it: hidden from the messages of
 * validation and of variables' coercion (graphql-js's, on the operations it runs rather than graphql-jit). Errors
 * are changed in place before the error masking copies their messages.
 */
export function hiddenSuggestions(): Plugin {
  return {
    onValidate:
      () =>
      ({ result }) =>
        hideIn(result),
    onExecute: () => ({ onExecuteDone: ({ result }) => hideIn("errors" in result ? result.errors : undefined) }),
    onSubscribe: () => ({ onSubscribeResult: ({ result }) => hideIn("errors" in result ? result.errors : undefined) }),
  };
}
