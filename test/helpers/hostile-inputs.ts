/** Inputs of the attacks the tests and the abuse bench send (issue 52). */

/**
 * An OpenAPI document whose `levels` schemas each reference the one before twice: 3.8 KB at 30 levels, expanding to
 * 2^levels copies when dereferenced.
 */
export function refChainSpec(levels: number): string {
  const schemas: Record<string, unknown> = { L0: { type: "string" } };
  for (let level = 1; level <= levels; level++) {
    const previous = { $ref: `#/components/schemas/L${level - 1}` };
    schemas[`L${level}`] = { type: "object", properties: { a: previous, b: { ...previous } } };
  }
  return JSON.stringify({
    openapi: "3.0.3",
    info: { title: "Chain", version: "1" },
    paths: {},
    components: { schemas },
  });
}
