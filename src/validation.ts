import { z } from "zod";
import { InvalidInputError } from "./errors.ts";

/** Validates service input; the first problems become one 400 message naming the fields. */
export function parseInput<Schema extends z.ZodType>(schema: Schema, input: unknown): z.infer<Schema> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const problems = result.error.issues
    .slice(0, 5)
    .map((issue) => (issue.path.length ? `${issue.path.join(".")}: ${issue.message}` : issue.message));
  throw new InvalidInputError(`Invalid input: ${problems.join("; ")}`);
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

/** PostgreSQL text cannot hold the NUL character: inputs that carry one (at any depth) are refused up front. */
export function containsNul(value: unknown): boolean {
  if (typeof value === "string") return value.includes("\u0000");
  if (Array.isArray(value)) return value.some(containsNul);
  if (value !== null && typeof value === "object") {
    return Object.entries(value).some(([key, entry]) => key.includes("\u0000") || containsNul(entry));
  }
  return false;
}

export const nulCharacterMessage = "Text must not contain the NUL character (\\u0000)";
