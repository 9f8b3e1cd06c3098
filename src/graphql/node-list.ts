import { InvalidInputError } from "../lib/errors.ts";
import type { FieldCost } from "./cost.ts";

/** Ids one `nodes(ids:)` may list: GitHub's 100. A longer list is refused, each id listed is costed as a read. */
const maxNodeIds = 100;

const listed = (args: Record<string, unknown>) => (Array.isArray(args.ids) ? args.ids.length : 1);

/** `nodes(ids:)` reads its selection once per id: the estimate counts them all (repeats included). */
export const nodesCost: FieldCost = { listSize: listed };

/** Pothos's `nodesQueryOptions.resolve`: refuses a list of more than `maxNodeIds` before any id is read. */
export function resolveListedNodes<Root, Id, Context, Info, Result>(
  _root: Root,
  args: { ids: Id[] },
  _context: Context,
  _info: Info,
  resolveNodes: (ids: Id[]) => Result,
): Result {
  if (args.ids.length > maxNodeIds) {
    throw new InvalidInputError(`ids must list at most ${maxNodeIds} ids; ${args.ids.length} were sent`);
  }
  return resolveNodes(args.ids);
}
