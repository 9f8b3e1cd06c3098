import type { ChangeRequestReview } from "../../db/generated/client.ts";

/*
 * Who may merge a change request beyond the review role (space.policy.ts): the space's merge rules.
 */

interface MergeRule {
  rule: string;
  users?: string[];
}

/**
 * The reviewers a merge still waits for under the space's merge rules (empty: it may merge). A
 * `require_specific_reviewers` rule needs an approval from each listed user, given on the change request's current
 * revision and not superseded by a later review of theirs; the first rule not met is the one reported.
 */
export function missingApprovals(
  mergeRules: unknown,
  revisionId: string,
  /** The change request's reviews, oldest first. */
  reviews: readonly Pick<ChangeRequestReview, "reviewerId" | "status" | "revisionId">[],
): string[] {
  const rules = mergeRules as { type: string; rules?: MergeRule[] };
  if (rules.type !== "rules") return [];
  const latest = new Map(reviews.map((review) => [review.reviewerId, review]));
  for (const rule of rules.rules ?? []) {
    if (rule.rule !== "require_specific_reviewers") continue;
    const missing = (rule.users ?? []).filter((userId) => {
      const review = latest.get(userId);
      return review?.status !== "approved" || review.revisionId !== revisionId;
    });
    if (missing.length > 0) return missing;
  }
  return [];
}
