import { z } from "zod";
import { InvalidInputError } from "./errors.ts";

/**
 * Validates service input; the first problems become one 400 message naming the fields, and every problem stays
 * with its path for GraphQL's `userErrors`. `at` is where `input` sits inside what the caller sent, for the REST
 * adapter checking a part of a body as the service will check it.
 */
export function parseInput<Schema extends z.ZodType>(
  schema: Schema,
  input: unknown,
  at: readonly PropertyKey[] = [],
): z.infer<Schema> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => ({ path: [...at, ...issue.path], message: issue.message }));
  const problems = issues
    .slice(0, 5)
    .map((issue) => (issue.path.length ? `${issue.path.map(String).join(".")}: ${issue.message}` : issue.message));
  throw new InvalidInputError(`Invalid input: ${problems.join("; ")}`, issues);
}

export const roleSchema = z.enum(["admin", "create", "review", "edit", "comment", "read"]);

/** The rich-text document shape of the reference: `object: "document"`, `data`, `nodes`. */
export const documentSchema = z
  .object({
    object: z.literal("document"),
    data: z.record(z.string(), z.unknown()).optional(),
    nodes: z.array(z.record(z.string(), z.unknown())),
  })
  .loose();

export const mergeRulesSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("inherit") }),
  z.object({ type: z.literal("none") }),
  z.object({
    type: z.literal("rules"),
    rules: z.array(z.object({ rule: z.string().min(1), users: z.array(z.string()).optional() }).loose()),
  }),
]);

/** Nesting deeper than this (arrays and objects in a body or variables) is refused: real inputs stay far below. */
export const maxInputDepth = 64;

export type InputProblem = "nul" | "depth";

/**
 * What makes an input unusable before any service sees it: a NUL character at any depth (PostgreSQL text cannot
 * hold it) or nesting deeper than `maxDepth`. An explicit stack walks it, so no input can drive a recursion deep.
 */
export function inputProblem(value: unknown, maxDepth = maxInputDepth): InputProblem | null {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const current = item.value;
    if (typeof current === "string") {
      if (current.includes("\u0000")) return "nul";
      continue;
    }
    if (current === null || typeof current !== "object") continue;
    if (item.depth >= maxDepth) return "depth";
    const depth = item.depth + 1;
    if (Array.isArray(current)) {
      // Strings and other scalars are checked in place: a list of 34,000 ids pushed as many frames to collect.
      for (const entry of current) {
        if (typeof entry === "string") {
          if (entry.includes("\u0000")) return "nul";
        } else if (entry !== null && typeof entry === "object") stack.push({ value: entry, depth });
      }
      continue;
    }
    for (const [key, entry] of Object.entries(current)) {
      if (key.includes("\u0000")) return "nul";
      stack.push({ value: entry, depth });
    }
  }
  return null;
}

export const nulCharacterMessage = "Text must not contain the NUL character (\\u0000)";
const nestingMessage = `Input must not be nested deeper than ${maxInputDepth} levels`;

export function inputProblemMessage(problem: InputProblem): string {
  return problem === "nul" ? nulCharacterMessage : nestingMessage;
}
