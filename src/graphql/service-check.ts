import type { z } from "zod";

/**
 * How the service checks an enum input that REST sends as a public value: the zod schema it parses, and how many
 * levels above the enum value that schema's input sits (0: the value itself, 1: the object holding it, ...). Before
 * these inputs were enums, the service was the only check, and REST answered its `Invalid input: ...` wording for
 * an unknown value; the REST adapter runs the same check first, so the wording stays (src/rest/public-enums.ts).
 */
export interface ServiceCheck {
  schema: z.ZodType;
  levelsUp: number;
}

/** The extensions of an enum input field or argument whose unknown values REST words as `schema` does. */
export function checkedByService(schema: z.ZodType, levelsUp: number): { serviceCheck: ServiceCheck } {
  return { serviceCheck: { schema, levelsUp } };
}

export function serviceCheckOf(extensions: Readonly<Record<string, unknown>> | null | undefined) {
  return extensions?.serviceCheck as ServiceCheck | undefined;
}
