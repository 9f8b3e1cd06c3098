import type { ReadRouting } from "../db/read-replicas.ts";
import type { EventBus } from "./bus.ts";

/** The one key of the `personWrote` topic: every instance hears every write. */
const everyPerson = "all";

/**
 * Read-your-writes across instances: after `person`'s write, this instance remembers the primary's WAL position and
 * tells the others through the bus, before the write is answered. A read that reaches another instance before the
 * NOTIFY (it is delivered within milliseconds, while the answer travels back to the client) may still be served by a
 * replica that lacks the write (docs/operations.md).
 */
export async function announceWrite(events: EventBus, reads: ReadRouting, person: string): Promise<void> {
  const position = await reads.wrote(person);
  if (position !== undefined) await events.publish("personWrote", everyPerson, { person, position });
}

/** Feeds `reads` with the writes other instances announce, until the bus closes. */
export function hearWrites(events: EventBus, reads: ReadRouting): void {
  if (reads.replicas().length === 0) return;
  const subscription = events.subscribe("personWrote", everyPerson);
  void (async () => {
    for await (const { person, position } of subscription) reads.heard(person, position);
  })();
}
