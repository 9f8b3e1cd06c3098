import type { ExecutionResult } from "graphql";
import type { RequestContext } from "../context.ts";
import { pointsOf } from "./cost.ts";

/** The estimated cost charged for each operation, by its context (yoga creates one per operation of a batch). */
const chargedCosts = new WeakMap<RequestContext, number>();

export function recordOperationCost(context: RequestContext, cost: number): void {
  chargedCosts.set(context, cost);
}

/** The estimated cost (nodes) charged for the operation running in `context`; 0 outside a charged operation. */
export function operationCostOf(context: RequestContext): number {
  return chargedCosts.get(context) ?? 0;
}

/** The fields of a result, each item of a list counted: the nodes an operation's work actually produced. */
function resultNodes(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((total: number, item) => total + resultNodes(item), 0);
  if (value === null || typeof value !== "object") return 0;
  let total = 0;
  for (const key in value) total += 1 + resultNodes((value as Record<string, unknown>)[key]);
  return total;
}

/**
 * What every GraphQL response tells its client in `extensions`: the operation's points (`requested`: charged up
 * front from the estimate; `actual`: by what the result holds, 0 when it did not run), its estimated nodes and the
 * most nodes a request may ask for, and the caller's rate-limit window in points (absent when that limit is off).
 */
interface CostReport {
  cost: { requested: number; actual: number; nodeCount: number; limit: number };
  rateLimit?: { limit: number; used: number; remaining: number; resetAt: string };
}

function costReport(result: ExecutionResult, context: RequestContext): CostReport {
  const nodeCount = operationCostOf(context);
  const actual = result.data ? pointsOf(resultNodes(result.data)) : 0;
  const report: CostReport = {
    cost: { requested: pointsOf(nodeCount), actual, nodeCount, limit: context.budget.maxCost },
  };
  const decision = context.rateLimit;
  if (decision) {
    report.rateLimit = {
      limit: decision.limit,
      used: Math.min(decision.used, decision.limit),
      remaining: decision.remaining,
      resetAt: decision.resetAt.toISOString(),
    };
  }
  return report;
}

/** Contexts of documents whose answers carry no `extensions` (REST routes'): their report would be built for nothing. */
const unreported = new WeakSet<object>();

/** The operation running in `context` answers without a cost report (REST answers say the points in RateLimit headers). */
export function withoutCostReport(context: object): void {
  unreported.add(context);
}

export function withCostReport<Result extends ExecutionResult>(result: Result, context: RequestContext): Result {
  if (unreported.has(context)) return result;
  return { ...result, extensions: { ...result.extensions, ...costReport(result, context) } };
}
