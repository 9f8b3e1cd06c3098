import type { ExecutionResult } from "graphql";
import { pointsOf } from "../lib/query-cost.ts";
import type { RequestContext } from "../request/context.ts";

/** The estimated cost of each operation, by its context (yoga creates one per operation of a batch). */
const estimatedCosts = new WeakMap<RequestContext, number>();

export function recordOperationCost(context: RequestContext, cost: number): void {
  estimatedCosts.set(context, cost);
}

/** The estimated cost (nodes) of the operation running in `context`; 0 outside an operation. */
export function operationCostOf(context: RequestContext): number {
  return estimatedCosts.get(context) ?? 0;
}

/**
 * What every GraphQL response tells its client in `extensions` (Shopify's model): the operation's points
 * (`requested`: by its estimate, which only refuses past `limit`; `actual`: what it was charged once it ran, by
 * what it returned and converted, 0 when it did not run), its estimated nodes and the most nodes a request may ask
 * for, and the caller's bucket in points after the charge (absent when that limit is off).
 */
interface CostReport {
  cost: { requested: number; actual: number; nodeCount: number; limit: number };
  rateLimit?: { limit: number; used: number; remaining: number; resetAt: string };
}

function costReport(context: RequestContext, actual: number): CostReport {
  const nodeCount = operationCostOf(context);
  const report: CostReport = {
    cost: { requested: pointsOf(nodeCount), actual, nodeCount, limit: context.budget.maxCost },
  };
  const decision = context.rateLimit;
  if (decision) {
    report.rateLimit = {
      limit: decision.limit,
      used: decision.used,
      remaining: decision.remaining,
      resetAt: decision.resetAt.toISOString(),
    };
  }
  return report;
}

/**
 * Contexts of server-side documents (REST routes'): fixed documents whose page size the router has bounded, so their
 * estimate refuses nothing (they pay what they did), and their answers carry no `extensions` (REST answers say the
 * points in RateLimit headers).
 */
const serverDocuments = new WeakSet<object>();

export function markServerDocument(context: object): void {
  serverDocuments.add(context);
}

export function isServerDocument(context: object): boolean {
  return serverDocuments.has(context);
}

/** The result with its cost report, `actual` being the points the operation was charged. */
export function withCostReport<Result extends ExecutionResult>(
  result: Result,
  context: RequestContext,
  actual: number,
): Result {
  if (serverDocuments.has(context)) return result;
  return { ...result, extensions: { ...result.extensions, ...costReport(context, actual) } };
}
