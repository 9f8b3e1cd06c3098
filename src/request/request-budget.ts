import { setImmediate } from "node:timers/promises";
import { DomainError } from "../lib/errors.ts";
import { actualPoints } from "../lib/query-cost.ts";
import { type ConversionKind, type Conversions, type HeavyWork, inlineHeavyWork } from "../workers/heavy-work.ts";

/** A request that would do more work than one request may: a client error, the request must ask for less. */
class CostLimitError extends DomainError {
  readonly code = "COST_LIMIT_EXCEEDED";
}

/** The caller's token bucket, which an operation's points are taken from once it ran (src/http/rate-limit.ts). */
export interface PointsAccount {
  /** Takes `points` for work done, whatever the bucket holds: it may go below 0, and the next request waits. */
  charge(points: number): void;
}

/**
 * What one HTTP request may spend and has spent (the operations of a GraphQL batch share it). Before an operation
 * runs, its estimated cost (src/lib/query-cost.ts) may only refuse it when it passes the single-request maximum; once it
 * ran, the caller's bucket is charged what it did: the nodes of its result and the content converted for it
 * (actualPoints). Conversions (markdown parsed into documents or search sections: the work that holds the event loop
 * or a worker) are also bounded in bytes per request, and run one after another with a turn of the event loop before
 * each, so other requests are served between them and one request never fills the workers' queue alone.
 */
export class RequestBudget {
  private estimated = 0;
  private convertedBytes = 0;
  /** Bytes converted for this request (not found in the cache) since its last operation was charged. */
  private workBytes = 0;
  /** The point the request paid on admission, which its first operation uses. */
  private prepaid: number;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly maxCost: number,
    readonly maxConversionBytes: number,
    private readonly work: HeavyWork,
    private readonly account?: PointsAccount,
  ) {
    this.prepaid = account ? 1 : 0;
  }

  /**
   * Refuses an operation before it runs when its estimated cost, with the request's earlier operations', passes the
   * single-request maximum (COST_LIMIT_EXCEEDED, 400). Nothing is charged for an estimate.
   */
  admitEstimate(cost: number): void {
    this.estimated += cost;
    if (this.estimated > this.maxCost) {
      throw new CostLimitError(
        `Query Cost limit of ${this.maxCost} exceeded, found ${this.estimated}: ask for fewer items or fields`,
      );
    }
  }

  /**
   * Charges an operation that ran: its result's `resultNodes` and the content converted for it since the last
   * charge, in points (at least 1, the first operation's paid on admission). Returns the points.
   */
  chargeActual(resultNodes: number): number {
    const points = actualPoints(resultNodes, this.workBytes);
    this.workBytes = 0;
    const credit = Math.min(this.prepaid, points);
    this.prepaid -= credit;
    this.account?.charge(points - credit);
    return points;
  }

  /** Converts `text` once the request's earlier conversions are done, within the byte budget. */
  convert<Kind extends ConversionKind>(kind: Kind, text: string): Promise<Conversions[Kind]> {
    this.convertedBytes += Buffer.byteLength(text);
    if (this.convertedBytes > this.maxConversionBytes) {
      return Promise.reject(
        new CostLimitError(
          `This request converts more than ${this.maxConversionBytes} bytes of content (documents, evaluated ` +
            "markdown, search sections): ask for fewer pages at a time",
        ),
      );
    }
    return this.inTurn(kind, text);
  }

  /**
   * Converts in the same turn as the other conversions without charging the byte budget: for texts bounded
   * otherwise (a comment's or a reply's body, 100,000 characters at most; the one page a comment is posted on),
   * which were never refused for their size. Their conversion is still charged in points, like any work done.
   */
  convertUncharged<Kind extends ConversionKind>(kind: Kind, text: string): Promise<Conversions[Kind]> {
    return this.inTurn(kind, text);
  }

  private inTurn<Kind extends ConversionKind>(kind: Kind, text: string): Promise<Conversions[Kind]> {
    const run = this.queue.then(async () => {
      await setImmediate();
      return this.work.convert(kind, text, (bytes) => {
        this.workBytes += bytes;
      });
    });
    this.queue = run.catch(() => undefined);
    return run;
  }
}

/** Work outside a request (jobs, the CLI) is not bounded per request. */
export function unlimitedBudget(): RequestBudget {
  return new RequestBudget(Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, inlineHeavyWork());
}
