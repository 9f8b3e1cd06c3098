import type { ExecutionResult } from "graphql";
import type { RequestContext } from "../context.ts";

/** The estimated cost charged for each operation, by its context (yoga creates one per operation of a batch). */
const chargedCosts = new WeakMap<RequestContext, number>();

export function recordOperationCost(context: RequestContext, cost: number): void {
  chargedCosts.set(context, cost);
}

/** The cost charged for the operation running in `context`; 0 outside a charged operation (jobs, the CLI). */
export function operationCostOf(context: RequestContext): number {
  return chargedCosts.get(context) ?? 0;
}

/**
 * What every GraphQL response tells its client in `extensions`: the operation's estimated cost and the most a
 * request may cost, and the caller's rate-limit window (absent when that limit is off).
 */
interface CostReport {
  cost: { requested: number; limit: number };
  rateLimit?: { limit: number; remaining: number; resetAt: string };
}

function costReport(context: RequestContext): CostReport {
  const report: CostReport = { cost: { requested: operationCostOf(context), limit: context.budget.maxCost } };
  const decision = context.rateLimit;
  if (decision) {
    report.rateLimit = {
      limit: decision.limit,
      remaining: decision.remaining,
      resetAt: decision.resetAt.toISOString(),
    };
  }
  return report;
}

export function withCostReport<Result extends ExecutionResult>(result: Result, context: RequestContext): Result {
  return { ...result, extensions: { ...result.extensions, ...costReport(context) } };
}
