import { type Decision, enforce } from "./policy.ts";

declare const readableBrand: unique symbol;

/**
 * A row the viewer was checked for and may read. Reads under it (a space's Git sync, a team's space count, a
 * spec document for a space's pages) take it as their argument, so the rule "no check under an already-checked
 * parent" is a type: a row nobody checked does not compile there. Checking a row already loaded costs no I/O.
 */
export type Readable<Row> = Row & { readonly [readableBrand]: true };

/** The row, once its policy's decision allows it (else the decision's error is thrown). */
export function checkedRead<Row>(row: Row, decision: Decision): Readable<Row> {
  enforce(decision);
  return row as Readable<Row>;
}

/** `checkedRead` for lists and `node` reads, where a refused row reads as null instead of an error. */
export function readableIf<Row>(row: Row, decision: Decision): Readable<Row> | null {
  return decision.allowed ? (row as Readable<Row>) : null;
}

/** The row a write returned for a row already checked (the same object, newer): readable as that one was. */
export function rewrittenRow<Row extends { id: string }>(checked: Readable<{ id: string }>, row: Row): Readable<Row> {
  if (row.id !== checked.id) throw new Error(`Row ${row.id} is not the checked row ${checked.id}`);
  return row as Readable<Row>;
}

/**
 * A row a statement read under the policy's read rule written as its filter (`visibleSpacesWhere`): readable
 * without a decision per row.
 */
export function readableByFilter<Row>(row: Row): Readable<Row> {
  return row as Readable<Row>;
}

/**
 * The parent of a row the caller has read (a change request's, comment's or page's space, a link location's space
 * that `listLinks` found visible): whoever may read the child may read its parent. The child rows do not carry
 * `Readable` yet, so this is the one place that convention still stands in for a check.
 */
export function readableAsParent<Row>(row: Row): Readable<Row> {
  return row as Readable<Row>;
}
