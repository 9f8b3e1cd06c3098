import { z } from "zod";
import { parseInput } from "../lib/validation.ts";
import type { SortKey } from "./pagination.ts";

/**
 * The `orderBy` and `filter` of the lists a front end browses. A list declares the fields it sorts by (public
 * names, the GraphQL enum values, mapped to columns) and its filter rules (a filter key -> how it tests a column);
 * this file turns them into a keyset sort, a Prisma `where`, SQL conditions for `paginateSql`, and a row predicate
 * for the nested reads that filter rows a batched loader already holds.
 */

const orderDirections = ["ASC", "DESC"] as const;
const maxOrderKeys = 3;

/** A list's orders: public field name -> column, and the unique column that breaks ties. */
export interface ListOrder<Node> {
  fields: Readonly<Record<string, keyof Node & string>>;
  tiebreak: keyof Node & string;
}

/** One key of an `orderBy` as a caller sends it. */
export interface OrderKeyInput {
  field: string;
  direction: string;
}

/** Each list's `orderBy` schema, built once per list rather than on every ordered request. */
const orderBySchemas = new WeakMap<object, ReturnType<typeof buildOrderBySchema>>();

function buildOrderBySchema(fieldNames: [string, ...string[]]) {
  return z.strictObject({
    orderBy: z
      .array(z.strictObject({ field: z.enum(fieldNames), direction: z.enum(orderDirections) }))
      .max(maxOrderKeys)
      .refine((keys) => new Set(keys.map((key) => key.field)).size === keys.length, "each field at most once"),
  });
}

function orderBySchemaOf<Node>(order: ListOrder<Node>) {
  let schema = orderBySchemas.get(order);
  if (!schema) {
    schema = buildOrderBySchema(Object.keys(order.fields) as [string, ...string[]]);
    orderBySchemas.set(order, schema);
  }
  return schema;
}

/**
 * The keyset sort of an `orderBy` (the list's own order when none): its keys in turn, then the tiebreak in the
 * last key's direction, so a one-key order is one index read forwards or backwards. Refuses unknown fields,
 * repeated fields and more than `maxOrderKeys` keys (400).
 */
export function sortFor<Node>(
  order: ListOrder<Node>,
  orderBy: readonly OrderKeyInput[] | null | undefined,
  fallback: readonly SortKey<Node>[],
): readonly SortKey<Node>[] {
  if (!orderBy || orderBy.length === 0) return fallback;
  const keys = parseInput(orderBySchemaOf(order), { orderBy }).orderBy.map(
    (key): SortKey<Node> => ({
      field: order.fields[key.field] as keyof Node & string,
      direction: key.direction === "ASC" ? "asc" : "desc",
    }),
  );
  const last = keys.at(-1) as SortKey<Node>;
  return [...keys, { field: order.tiebreak, direction: last.direction }];
}

/** How one filter key tests a column: text containing the value (ignoring case), a bound (exclusive), equality. */
type FilterRule<Node> =
  | { contains: keyof Node & string }
  | { after: keyof Node & string }
  | { before: keyof Node & string }
  | { equals: keyof Node & string };

export type FilterRules<Node, Filter> = { readonly [Key in keyof Filter]-?: FilterRule<Node> };

/** Filter values: search text, time bounds (exclusive; GraphQL's `DateTime` parses them). */
export const containsSchema = z.string().trim().min(1).max(256);
export const dateBoundSchema = z.date();

/** Validates a list's `filter` with its schema (400 on unknown keys or bad values); no filter is `{}`. */
export function parseFilter<Schema extends z.ZodType>(schema: Schema, filter: unknown): z.infer<Schema> {
  // Wrapped so that problems name `filter.<key>`; the wrapper is built once per schema (lists parse on every read).
  let wrapped = filterWrappers.get(schema);
  if (!wrapped) {
    wrapped = z.strictObject({ filter: schema });
    filterWrappers.set(schema, wrapped);
  }
  const parsed = parseInput(wrapped, { filter: filter ?? {} }) as { filter: z.infer<Schema> };
  return parsed.filter;
}

const filterWrappers = new WeakMap<z.ZodType, z.ZodType>();

type FilterEntry<Node> = { rule: FilterRule<Node>; value: unknown };

function entriesOf<Node, Filter extends object>(rules: FilterRules<Node, Filter>, filter: Filter): FilterEntry<Node>[] {
  return (Object.keys(rules) as (keyof Filter)[]).flatMap((key) => {
    const value = filter[key];
    return value === null || value === undefined ? [] : [{ rule: rules[key], value }];
  });
}

/** The filter as Prisma `where` conditions, to AND with the list's scope. */
export function filterWhere<Node, Filter extends object>(rules: FilterRules<Node, Filter>, filter: Filter): object[] {
  return entriesOf(rules, filter).map(({ rule, value }) => {
    if ("contains" in rule) return { [rule.contains]: { contains: value, mode: "insensitive" } };
    if ("after" in rule) return { [rule.after]: { gt: value } };
    if ("before" in rule) return { [rule.before]: { lt: value } };
    return { [rule.equals]: value };
  });
}

/** Escapes `LIKE` wildcards, so a search for `50%` finds that text. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The filter as SQL conditions on the table aliased `t` (`paginateSql`), its values bound through `bind`. */
export function filterSql<Node, Filter extends object>(
  rules: FilterRules<Node, Filter>,
  filter: Filter,
  bind: (value: unknown) => string,
): string[] {
  return entriesOf(rules, filter).map(({ rule, value }) => {
    if ("contains" in rule) return `t."${rule.contains}" ILIKE ${bind(likePattern(value as string))}`;
    if ("after" in rule) return `t."${rule.after}" > ${bind(value)}`;
    if ("before" in rule) return `t."${rule.before}" < ${bind(value)}`;
    return `t."${rule.equals}" = ${bind(value)}`;
  });
}

/** The filter tested on rows already loaded (nested reads), with the database's meaning of each rule. */
export function filterMatcher<Node, Filter extends object>(
  rules: FilterRules<Node, Filter>,
  filter: Filter,
): (node: Node) => boolean {
  const tests = entriesOf(rules, filter).map(({ rule, value }) => {
    if ("contains" in rule) {
      const needle = (value as string).toLowerCase();
      return (node: Node) =>
        String(node[rule.contains] ?? "")
          .toLowerCase()
          .includes(needle);
    }
    if ("after" in rule) return (node: Node) => (node[rule.after] as Date) > (value as Date);
    if ("before" in rule) return (node: Node) => (node[rule.before] as Date) < (value as Date);
    return (node: Node) => node[rule.equals] === value;
  });
  return (node) => tests.every((test) => test(node));
}

/** Whether a filter sets any key (an empty filter is no filter). */
export function isFiltering(filter: object): boolean {
  return Object.values(filter).some((value) => value !== null && value !== undefined);
}

/** A list's `orderBy` and `filter` as the resolvers pass them on (validated by the service). */
export interface ListArgs {
  orderBy?: readonly OrderKeyInput[] | null;
  filter?: unknown;
}

/** The filter keys every list with creation and change times offers, on columns `createdAt` and `updatedAt`. */
export function timeRangeSchemas(noun: string) {
  return {
    createdAfter: dateBoundSchema.nullish().describe(`Only ${noun} created after this time (ISO 8601)`),
    createdBefore: dateBoundSchema.nullish().describe(`Only ${noun} created before this time (ISO 8601)`),
    updatedAfter: dateBoundSchema.nullish().describe(`Only ${noun} last changed after this time (ISO 8601)`),
    updatedBefore: dateBoundSchema.nullish().describe(`Only ${noun} last changed before this time (ISO 8601)`),
  };
}

/** The filter rules of `createdAfter`/`createdBefore`, for lists whose rows have no `updatedAt`. */
export const createdRangeRules = {
  createdAfter: { after: "createdAt" },
  createdBefore: { before: "createdAt" },
} as const;

export const timeRangeRules = {
  ...createdRangeRules,
  updatedAfter: { after: "updatedAt" },
  updatedBefore: { before: "updatedAt" },
} as const;
