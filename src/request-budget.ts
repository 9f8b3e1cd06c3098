import { setImmediate } from "node:timers/promises";
import { DomainError } from "./lib/errors.ts";

/** A request that would do more work than one request may: a client error, the request must ask for less. */
class CostLimitError extends DomainError {
  readonly status = 400;
  readonly code = "COST_LIMIT_EXCEEDED";
}

/**
 * What one HTTP request may spend (the operations of a GraphQL batch share it): the estimated cost of its
 * operations, and the bytes of content it converts (markdown parsed into documents or search sections), the work
 * that holds the event loop. Conversions run one after another with a turn of the event loop before each, so other
 * requests are served between them rather than after all of them.
 */
export class RequestBudget {
  private cost = 0;
  private convertedBytes = 0;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly maxCost: number,
    readonly maxConversionBytes: number,
  ) {}

  /** Charges an operation's estimated cost before it runs. */
  chargeCost(cost: number): void {
    this.cost += cost;
    if (this.cost > this.maxCost) {
      throw new CostLimitError(
        `Query Cost limit of ${this.maxCost} exceeded, found ${this.cost}: ask for fewer items or fields`,
      );
    }
  }

  /** Converts `text` with `convert` once the request's earlier conversions are done, within the byte budget. */
  convert<T>(text: string, convert: (text: string) => T): Promise<T> {
    this.convertedBytes += Buffer.byteLength(text);
    if (this.convertedBytes > this.maxConversionBytes) {
      return Promise.reject(
        new CostLimitError(
          `This request converts more than ${this.maxConversionBytes} bytes of content (documents, evaluated ` +
            "markdown, search sections): ask for fewer pages at a time",
        ),
      );
    }
    const run = this.queue.then(async () => {
      await setImmediate();
      return convert(text);
    });
    this.queue = run.catch(() => undefined);
    return run;
  }
}

/** Work outside a request (jobs, the CLI) is not bounded per request. */
export function unlimitedBudget(): RequestBudget {
  return new RequestBudget(Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY);
}
