import type { QueryRule } from "./route.ts";

/** Why the request's query breaks one of the route's rules (the 400 message), or undefined when it keeps them all. */
export function queryRuleProblem(
  rules: Readonly<Record<string, QueryRule>> | undefined,
  query: URLSearchParams,
): string | undefined {
  for (const [name, rule] of Object.entries(rules ?? {})) {
    if (!query.has(name)) continue;
    if ("unsupported" in rule) return `Query parameter ${name} is not supported: ${rule.unsupported}`;
    if ("integerBetween" in rule) {
      const [least, most] = rule.integerBetween;
      const outside = query.getAll(name).find((value) => {
        const number = Number(value);
        return value.trim() === "" || !Number.isInteger(number) || number < least || number > most;
      });
      if (outside !== undefined) return `Query parameter ${name} must be an integer between ${least} and ${most}`;
      continue;
    }
    const invalid = query.getAll(name).find((value) => !rule.oneOf.includes(value));
    if (invalid !== undefined) return `Query parameter ${name} must be one of ${rule.oneOf.join(", ")}`;
  }
  return undefined;
}
