import type { RequestContext } from "../context.ts";
import { builder } from "./builder.ts";
import { operationCostOf } from "./cost-report.ts";

const RateLimitRef = builder.objectRef<RequestContext>("RateLimit").implement({
  description:
    "What this operation costs and how much of the caller's request budget is left. The same numbers are in " +
    "`extensions.cost` and `extensions.rateLimit` of every response, and the RateLimit-* headers.",
  fields: (t) => ({
    cost: t.int({
      description:
        "Estimated cost of this operation, by the estimator that refuses operations over `maxCost` before they " +
        "run: each field costs 1 (or its declared weight), and a list's selection counts once per item asked " +
        "for (`first`/`last`, or the size the field declares).",
      resolve: (context) => operationCostOf(context),
    }),
    maxCost: t.int({
      description:
        "The most one HTTP request may cost (the operations of a batch share it); over it the operation is " +
        "refused with COST_LIMIT_EXCEEDED.",
      resolve: (context) => context.budget.maxCost,
    }),
    limit: t.int({
      nullable: true,
      description:
        "Requests the caller may make per window: per user (all of the user's API tokens together) when the " +
        "request carries a valid token, per client address otherwise. Null when rate limiting is off for this kind of caller.",
      resolve: (context) => context.rateLimit?.limit ?? null,
    }),
    remaining: t.int({
      nullable: true,
      description: "Requests left in the current window, this one counted. Null when rate limiting is off.",
      resolve: (context) => context.rateLimit?.remaining ?? null,
    }),
    resetAt: t.field({
      type: "DateTime",
      nullable: true,
      description: "When the current window ends and `remaining` is back to `limit`. Null when rate limiting is off.",
      resolve: (context) => context.rateLimit?.resetAt ?? null,
    }),
  }),
});

builder.queryField("rateLimit", (t) =>
  t.field({
    type: RateLimitRef,
    description:
      "This operation's cost and the caller's rate-limit window (GitHub's `rateLimit`). Needs no token: an " +
      "anonymous caller sees the limit of its client address.",
    resolve: (_root, _args, context) => context,
  }),
);
