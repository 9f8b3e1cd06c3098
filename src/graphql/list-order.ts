import type { z } from "zod";
import { builder } from "./builder.ts";
import { describeInputField } from "./input-description.ts";

/** The one direction enum of every `orderBy`. */
const OrderDirectionEnum = builder.enumType("OrderDirection", {
  description: "A direction of an `orderBy` key.",
  values: {
    ASC: { description: "Ascending: oldest, smallest or first in alphabetical order first." },
    DESC: { description: "Descending: newest, largest or last in alphabetical order first." },
  },
});

/** What a sort field means, by the column it sorts (the `<Type>OrderField` values' descriptions). */
const columnMeaning: Record<string, string> = {
  createdAt: "When it was created.",
  updatedAt: "When it was last changed.",
  title: "Its title, in the database's text order.",
  position: "Its place in the order the site shows.",
  path: "Its URL path, in the database's text order.",
  joinedAt: "When the member joined.",
  lastSeenAt: "When the member was last active (lists only members who have been active).",
  number: "Its number in its space.",
  postedAt: "When it was posted.",
  slug: "Its slug, in the database's text order.",
};

/**
 * The `<name>Order` input of a list's `orderBy` (`{ field, direction }`) and its `<name>OrderField` enum, whose
 * values are the service's public sort fields (`fields`: value -> column).
 */
export function orderInput(name: string, list: string, fields: Readonly<Record<string, string>>) {
  const FieldEnum = builder.enumType(`${name}OrderField`, {
    description: `A field ${list} sort by.`,
    values: Object.fromEntries(
      Object.entries(fields).map(([value, column]) => [value, { description: columnMeaning[column] ?? column }]),
    ),
  });
  return builder.inputType(`${name}Order`, {
    description: `One sort key of ${list}.`,
    fields: (t) => ({
      field: t.field({ type: FieldEnum, required: true, description: "The field to sort by." }),
      direction: t.field({ type: OrderDirectionEnum, required: true, description: "Ascending or descending." }),
    }),
  });
}

/** The description of an `orderBy` argument; `fallback` is the list's order without one. */
export function orderByDescription(fallback: string): string {
  return (
    `Sort keys, applied in turn (at most 3, each field once); ties break on the id, in the last key's direction. ` +
    `Cursors belong to their order: a cursor used with another order is refused. Default: ${fallback}.`
  );
}

/** What a `<Type>Filter` input builder offers the date-bound helper below. */
interface DateFieldBuilder<Field> {
  field(options: { type: "DateTime"; description: string }): Field;
}

/**
 * Time-bound filter fields (`createdAfter`, ...), described from the service's filter schema: `DateTime`s, like
 * every date the schema answers.
 */
export function dateBoundFields<Field, Key extends string>(
  t: DateFieldBuilder<Field>,
  schema: z.ZodObject,
  keys: readonly Key[],
): Record<Key, Field> {
  return Object.fromEntries(
    keys.map((key) => [key, t.field({ type: "DateTime", description: describeInputField(schema, key) })]),
  ) as Record<Key, Field>;
}

export const timeRangeKeys = ["createdAfter", "createdBefore", "updatedAfter", "updatedBefore"] as const;
export const createdRangeKeys = ["createdAfter", "createdBefore"] as const;
