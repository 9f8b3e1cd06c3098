import { describe, expect, it } from "vitest";
import type { ChangeRequest } from "../../../src/db/generated/client.ts";
import { ConflictError } from "../../../src/lib/errors.ts";
import { missingApprovals } from "../../../src/modules/change-request/change-request.policy.ts";
import { mergeOrRefuse, mergeSides } from "../../../src/modules/change-request/change-request-merge.service.ts";
import type { ContentState } from "../../../src/modules/content/content-state.ts";

/* The decisions of merging a change request, without a database: which revisions, whether the rules allow it, 409. */

const changeRequest = (overrides: Partial<ChangeRequest> = {}) =>
  ({
    id: "cr_1",
    revisionId: "rev_cr",
    revisionInitial: "rev_initial",
    revisionMergedAncestor: null,
    ...overrides,
  }) as ChangeRequest;

describe("mergeSides", () => {
  it("merges the change request into the space against the revision it started from", () => {
    expect(mergeSides("space", "rev_space", changeRequest())).toEqual({
      base: "rev_initial",
      ours: "rev_space",
      theirs: "rev_cr",
    });
  });

  it("after an update from the space, merges against the space revision last taken in", () => {
    const updated = changeRequest({ revisionMergedAncestor: "rev_pulled" });
    expect(mergeSides("space", "rev_space", updated)?.base).toBe("rev_pulled");
    expect(mergeSides("change-request", "rev_space", updated)).toEqual({
      base: "rev_pulled",
      ours: "rev_cr",
      theirs: "rev_space",
    });
  });

  it("has nothing to pull when the space has not moved since the change request last took it in", () => {
    expect(mergeSides("change-request", "rev_initial", changeRequest())).toBeNull();
    expect(
      mergeSides("change-request", "rev_pulled", changeRequest({ revisionMergedAncestor: "rev_pulled" })),
    ).toBeNull();
    // Merging into an unmoved space is still a merge: the change request's changes land.
    expect(mergeSides("space", "rev_initial", changeRequest())).not.toBeNull();
  });
});

describe("missingApprovals", () => {
  const rules = (users: string[], rule = "require_specific_reviewers") => ({ type: "rules", rules: [{ rule, users }] });
  const review = (reviewerId: string, status: string, revisionId = "rev_cr") => ({ reviewerId, status, revisionId });

  it("asks nothing of spaces without rules", () => {
    expect(missingApprovals({ type: "inherit" }, "rev_cr", [])).toEqual([]);
    expect(missingApprovals({ type: "none" }, "rev_cr", [])).toEqual([]);
    expect(missingApprovals(rules(["user_a"], "some_future_rule"), "rev_cr", [])).toEqual([]);
  });

  it("lists the named reviewers who have not approved the current revision", () => {
    const reviews = [review("user_a", "approved"), review("user_b", "approved", "rev_older")];
    expect(missingApprovals(rules(["user_a", "user_b", "user_c"]), "rev_cr", reviews)).toEqual(["user_b", "user_c"]);
    expect(missingApprovals(rules(["user_a"]), "rev_cr", reviews)).toEqual([]);
  });

  it("counts only each reviewer's latest review", () => {
    const withdrawn = [review("user_a", "approved"), review("user_a", "changes-requested")];
    expect(missingApprovals(rules(["user_a"]), "rev_cr", withdrawn)).toEqual(["user_a"]);
    const approvedAgain = [review("user_a", "changes-requested"), review("user_a", "approved")];
    expect(missingApprovals(rules(["user_a"]), "rev_cr", approvedAgain)).toEqual([]);
  });

  it("reports the first rule not met", () => {
    const two = { type: "rules", rules: [...rules(["user_a"]).rules, ...rules(["user_b"]).rules] };
    expect(missingApprovals(two, "rev_cr", [])).toEqual(["user_a"]);
    expect(missingApprovals(two, "rev_cr", [review("user_a", "approved")])).toEqual(["user_b"]);
  });
});

describe("mergeOrRefuse", () => {
  const state = (variables: Record<string, unknown>): ContentState => ({
    pages: new Map(),
    files: new Map(),
    variables,
  });

  it("answers the merged content when nothing conflicts", () => {
    expect(mergeOrRefuse(state({}), state({ a: 1 }), state({ b: 2 })).variables).toEqual({ a: 1, b: 2 });
  });

  it("refuses with a 409 naming each conflict, at most 20 of them", () => {
    const keys = Array.from({ length: 25 }, (_, index) => `v${index}`);
    const side = (value: string) => state(Object.fromEntries(keys.map((key) => [key, value])));
    const refusal = (() => {
      try {
        mergeOrRefuse(state({}), side("ours"), side("theirs"));
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(ConflictError);
    const message = (refusal as ConflictError).message;
    expect(message).toMatch(/^Merge conflicts on 25 item\(s\): "v0" \(variables\): variable changed on both sides; /);
    expect(message.split("; ")).toHaveLength(20);
  });
});
