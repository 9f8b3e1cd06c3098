import type { FieldCost } from "../lib/query-cost.ts";

/** Ids one `nodes(ids:)` may list: GitHub's 100. A longer list is refused, each id listed is costed as a read. */
const maxNodeIds = 100;

const listed = (args: Record<string, unknown>) => (Array.isArray(args.ids) ? args.ids.length : 1);

const tooManyIds = (count: number) =>
  count > maxNodeIds ? `ids must list at most ${maxNodeIds} ids; ${count} were sent` : undefined;

/**
 * `nodes(ids:)` reads its selection once per id: the estimate counts them all (repeats included), and refuses a
 * longer list than 100 before the ids are decoded (34,000 ids cost 60 ms of the event loop to decode, then refuse).
 */
export const nodesCost: FieldCost = { listSize: listed, listProblem: tooManyIds };
