import { InvalidInputError } from "./errors.ts";

/** Where a moved item goes among its siblings: before or after one of them, or (neither) at the end. */
export interface Placement {
  before?: string | null;
  after?: string | null;
}

/** The new order of `siblings` (ids, current order) once `moved` is placed; a target outside them is a 400. */
export function placeAmong(siblings: readonly string[], moved: string, placement: Placement | null | undefined) {
  const rest = siblings.filter((id) => id !== moved);
  if (placement?.before && placement.after) throw new InvalidInputError("position takes either before or after");
  const target = placement?.before ?? placement?.after;
  if (!target) return [...rest, moved];
  const index = rest.indexOf(target);
  if (index < 0) throw new InvalidInputError(`position: ${target} is not a sibling of ${moved}`);
  rest.splice(placement?.before ? index : index + 1, 0, moved);
  return rest;
}
