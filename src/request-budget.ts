import { setImmediate } from "node:timers/promises";
import { pointsOf } from "./graphql/cost.ts";
import { DomainError } from "./lib/errors.ts";
import { type ConversionKind, type Conversions, type HeavyWork, inlineHeavyWork } from "./workers/heavy-work.ts";

/** A request that would do more work than one request may: a client error, the request must ask for less. */
class CostLimitError extends DomainError {
  readonly status = 400;
  readonly code = "COST_LIMIT_EXCEEDED";
}

/** The caller's rate-limit window, which an operation's points are taken from (src/http/rate-limit.ts). */
export interface PointsAccount {
  /** Takes `points` from the window, or throws RATE_LIMITED (429) when fewer are left. */
  spend(points: number): void;
}

/**
 * What one HTTP request may spend (the operations of a GraphQL batch share it): the estimated cost of its
 * operations, and the bytes of content it converts (markdown parsed into documents or search sections), the work
 * that holds the event loop or a worker. Conversions run one after another with a turn of the event loop before
 * each, so other requests are served between them and one request never fills the workers' queue alone.
 */
export class RequestBudget {
  private cost = 0;
  private convertedBytes = 0;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly maxCost: number,
    readonly maxConversionBytes: number,
    private readonly work: HeavyWork,
    private readonly rateLimit?: PointsAccount,
  ) {}

  /**
   * Charges an operation's estimated cost before it runs (GraphQL operations and REST routes' documents alike):
   * against the request's maximum, then its points against the caller's rate-limit window.
   */
  chargeCost(cost: number): void {
    this.cost += cost;
    if (this.cost > this.maxCost) {
      throw new CostLimitError(
        `Query Cost limit of ${this.maxCost} exceeded, found ${this.cost}: ask for fewer items or fields`,
      );
    }
    this.rateLimit?.spend(pointsOf(cost));
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
   * which were never refused for their size.
   */
  convertUncharged<Kind extends ConversionKind>(kind: Kind, text: string): Promise<Conversions[Kind]> {
    return this.inTurn(kind, text);
  }

  private inTurn<Kind extends ConversionKind>(kind: Kind, text: string): Promise<Conversions[Kind]> {
    const run = this.queue.then(async () => {
      await setImmediate();
      return this.work.convert(kind, text);
    });
    this.queue = run.catch(() => undefined);
    return run;
  }
}

/** Work outside a request (jobs, the CLI) is not bounded per request. */
export function unlimitedBudget(): RequestBudget {
  return new RequestBudget(Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, inlineHeavyWork());
}
