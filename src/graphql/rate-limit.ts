import type { RequestContext } from "../context.ts";
import { builder } from "./builder.ts";
import { pointsOf } from "./cost.ts";
import { operationCostOf } from "./cost-report.ts";

const RateLimitRef = builder.objectRef<RequestContext>("RateLimit").implement({
  description:
    "What this operation costs and how much of the caller's rate-limit window is left, in points (GitHub's " +
    "model): an operation costs its estimated nodes / 100, at least 1, charged before it runs. The same numbers " +
    "are in `extensions.cost` and `extensions.rateLimit` of every response, and the RateLimit-* headers.",
  fields: (t) => ({
    cost: t.int({
      description:
        "Points this operation is charged: `nodeCount` / 100 rounded up, at least 1. `extensions.cost.actual` " +
        "tells what its result turned out to hold.",
      resolve: (context) => pointsOf(operationCostOf(context)),
    }),
    nodeCount: t.int({
      description:
        "Estimated nodes of this operation, by the estimator that refuses operations over `maxCost` before they " +
        "run: each field counts 1 (or its declared weight), and a list's selection counts once per item asked " +
        "for (`first`/`last`, or the size the field declares).",
      resolve: (context) => operationCostOf(context),
    }),
    maxCost: t.int({
      description:
        "The most nodes (`nodeCount`) one HTTP request may ask for (the operations of a batch share it); over it " +
        "the operation is refused with COST_LIMIT_EXCEEDED.",
      resolve: (context) => context.budget.maxCost,
    }),
    limit: t.int({
      nullable: true,
      description:
        "Points the caller may spend per window: per user (all of the user's API tokens together) when the " +
        "request carries a valid token, per client address otherwise. Null when rate limiting is off for this " +
        "kind of caller.",
      resolve: (context) => context.rateLimit?.limit ?? null,
    }),
    used: t.int({
      nullable: true,
      description: "Points spent in the current window, this operation's included. Null when rate limiting is off.",
      resolve: (context) => (context.rateLimit ? Math.min(context.rateLimit.used, context.rateLimit.limit) : null),
    }),
    remaining: t.int({
      nullable: true,
      description:
        "Points left in the current window, this operation's taken. An operation costing more is refused with " +
        "RATE_LIMITED. Null when rate limiting is off.",
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
