/**
 * Mutation results and by-id lookups are nullable (partial success): this narrows one and fails the test when it is
 * null, which a successful request never answers.
 */
export function present<T>(value: T | null | undefined): T {
  if (value === null || value === undefined) throw new Error(`Expected a result, got ${value}`);
  return value;
}
