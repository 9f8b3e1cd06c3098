import { pointsOf } from "../lib/query-cost.ts";
import { builder } from "./builder.ts";
import { operationCostOf } from "./cost-report.ts";

/** The request's own context answers every field: the object itself only stands for it (a cache keys it). */
const RateLimitRef = builder.objectRef<object>("RateLimit").implement({
  description:
    "What this operation may cost and how much of the caller's rate-limit bucket is left, in points (GitHub's " +
    "points, Shopify's charging): a request needs one point in the bucket to start; each operation is then charged " +
    "what it did once it ran (the nodes it returned / 100 and the content it converted, at least 1), and refused " +
    "before it runs only when its estimate passes `maxCost`. The bucket refills continuously. What the operation " +
    "was charged is in `extensions.cost.actual`, the bucket after it in `extensions.rateLimit` and the RateLimit-* " +
    "headers.",
  fields: (t) => ({
    cost: t.int({
      description:
        "Points this operation's estimate stands for: `nodeCount` / 100 rounded up, at least 1 (the most it can " +
        "be charged for its nodes). `extensions.cost.actual` tells what it was charged once it ran.",
      resolve: (_rateLimit, _args, context) => pointsOf(operationCostOf(context)),
    }),
    nodeCount: t.int({
      description:
        "Estimated nodes of this operation, by the estimator that refuses operations over `maxCost` before they " +
        "run: each field counts 1 (or its declared weight), and a list's selection counts once per item asked " +
        "for (`first`/`last`, or the size the field declares).",
      resolve: (_rateLimit, _args, context) => operationCostOf(context),
    }),
    maxCost: t.int({
      description:
        "The most nodes (`nodeCount`) one HTTP request may ask for (the operations of a batch share it); over it " +
        "the operation is refused with COST_LIMIT_EXCEEDED.",
      resolve: (_rateLimit, _args, context) => context.budget.maxCost,
    }),
    limit: t.int({
      nullable: true,
      description:
        "The caller's bucket's capacity in points: per user (all of the user's API tokens together) when the " +
        "request carries a valid token, per client address otherwise. Null when rate limiting is off for this " +
        "kind of caller.",
      resolve: (_rateLimit, _args, context) => context.rateLimit?.limit ?? null,
    }),
    used: t.int({
      nullable: true,
      description:
        "Points missing from a full bucket when this operation started (its own charge comes after it ran). Null " +
        "when rate limiting is off.",
      resolve: (_rateLimit, _args, context) => context.rateLimit?.used ?? null,
    }),
    remaining: t.int({
      nullable: true,
      description:
        "Points in the bucket when this operation started. A request arriving at an empty bucket is refused with " +
        "429 and Retry-After. Null when rate limiting is off.",
      resolve: (_rateLimit, _args, context) => context.rateLimit?.remaining ?? null,
    }),
    resetAt: t.field({
      type: "DateTime",
      nullable: true,
      description: "When the bucket is full again if no request comes. Null when rate limiting is off.",
      resolve: (_rateLimit, _args, context) => context.rateLimit?.resetAt ?? null,
    }),
  }),
});

builder.queryField("rateLimit", (t) =>
  t.field({
    type: RateLimitRef,
    description:
      "This operation's cost and the caller's rate-limit bucket (GitHub's `rateLimit`). Needs no token: an " +
      "anonymous caller sees the limit of its client address.",
    resolve: () => ({}),
  }),
);
