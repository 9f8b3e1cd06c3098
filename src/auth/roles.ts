import type { Role } from "../db/generated/enums.ts";

/** Roles from least to most powerful. */
export const roleOrder = ["read", "comment", "edit", "review", "create", "admin"] as const satisfies readonly Role[];

export function roleRank(role: Role | null | undefined): number {
  return role ? roleOrder.indexOf(role) : -1;
}

export function hasRole(actual: Role | null | undefined, least: Role): boolean {
  return roleRank(actual) >= roleRank(least);
}

export function highestRole(...roles: (Role | null | undefined)[]): Role | null {
  let best: Role | null = null;
  for (const role of roles) if (roleRank(role) > roleRank(best)) best = role ?? null;
  return best;
}
