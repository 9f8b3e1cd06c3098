import type { z } from "zod";

/**
 * How the service checks an enum or scalar input that REST sends as text: the zod schema it parses, and how many
 * levels above the value that schema's input sits (0: the value itself, 1: the object holding it, ...). A scalar
 * also names the schema of the value alone (`value`), which the REST adapter refuses it by. Before these inputs were
 * enums and `DateTime`s, the service was the only check, and REST answered its `Invalid input: ...` wording for a
 * bad value; the REST adapter runs the same check first, so the wording stays (src/rest/public-enums.ts).
 */
export interface ServiceCheck {
  schema: z.ZodType;
  levelsUp: number;
  value?: z.ZodType;
}

/** The extensions of an enum or scalar input field or argument whose bad values REST words as `schema` does. */
export function checkedByService(
  schema: z.ZodType,
  levelsUp: number,
  value?: z.ZodType,
): { serviceCheck: ServiceCheck } {
  return { serviceCheck: { schema, levelsUp, ...(value && { value }) } };
}

export function serviceCheckOf(extensions: Readonly<Record<string, unknown>> | null | undefined) {
  return extensions?.serviceCheck as ServiceCheck | undefined;
}
