import type { GraphQLField, GraphQLNamedType } from "graphql";

/*
 * What the public REST API needs beyond the GraphQL result, declared by each module on its own GraphQL types and
 * fields as Pothos `extensions` (so a new resource's REST shape lives in its folder), read here from the built schema.
 */

/** The REST object name of a type (`object` in REST bodies; route documents select `object: __typename`). */
export function restObjectName(type: GraphQLNamedType): string | undefined {
  const name = type.extensions.restObjectName;
  return typeof name === "string" ? name : undefined;
}

/**
 * Whether REST sends the field's null as `null` rather than leaving it out (e.g. a guest's `role`): every other null
 * is dropped, as the public API leaves absent optional fields out.
 */
export function restKeepsNull(field: GraphQLField<unknown, unknown>): boolean {
  return field.extensions.restKeepsNull === true;
}

/** Whether a flat page list (each page naming its `parent`) is answered as a tree: each page under its parent's `pages`. */
export function restNestsByParent(field: GraphQLField<unknown, unknown>): boolean {
  return field.extensions.restNestsByParent === true;
}

/** Enum values REST answers under other names when the field is selected as `key` (a page's `type` as `kind`). */
export function restRenamedValues(
  field: GraphQLField<unknown, unknown>,
  key: string,
): Readonly<Record<string, string>> | undefined {
  const renamed = field.extensions.restRenamedValues as Record<string, Record<string, string>> | undefined;
  return renamed?.[key];
}
