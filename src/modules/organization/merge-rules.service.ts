import type { z } from "zod";
import type { PrismaExecutor } from "../../db/database.ts";
import { InvalidInputError } from "../../lib/errors.ts";
import type { mergeRulesSchema } from "../../lib/validation.ts";

type MergeRules = z.infer<typeof mergeRulesSchema>;

/** The users merge rules name (the reviewers of `require_specific_reviewers`), each once. */
function usersNamed(rules: MergeRules): string[] {
  if (rules.type !== "rules") return [];
  return [...new Set(rules.rules.flatMap((rule) => rule.users ?? []))];
}

async function membersAmong(prisma: PrismaExecutor, organizationId: string, users: string[]): Promise<Set<string>> {
  if (users.length === 0) return new Set();
  const rows = await prisma.member.findMany({
    where: { organizationId, userId: { in: users }, disabled: false },
    select: { userId: true },
  });
  return new Set(rows.map((row) => row.userId));
}

/**
 * Merge rules may name only members of the organization: a reviewer who does not exist, or who belongs to another
 * organization, could never approve, and the space could never merge again (400).
 */
export async function requireMergeRuleMembers(
  prisma: PrismaExecutor,
  organizationId: string,
  rules: MergeRules | undefined,
): Promise<void> {
  if (!rules) return;
  const users = usersNamed(rules);
  const members = await membersAmong(prisma, organizationId, users);
  const strangers = users.filter((userId) => !members.has(userId));
  if (strangers.length > 0) {
    const shown = strangers.slice(0, 10).join(", ");
    throw new InvalidInputError(`Merge rules may name only members of this organization, not: ${shown}`);
  }
}

/** A space's merge rules for another organization (transfer): reviewers who are not members there are dropped. */
export async function mergeRulesWithin(
  prisma: PrismaExecutor,
  organizationId: string,
  rules: MergeRules,
): Promise<MergeRules> {
  if (rules.type !== "rules") return rules;
  const members = await membersAmong(prisma, organizationId, usersNamed(rules));
  return {
    ...rules,
    rules: rules.rules.map((rule) =>
      rule.users ? { ...rule, users: rule.users.filter((userId) => members.has(userId)) } : rule,
    ),
  };
}
