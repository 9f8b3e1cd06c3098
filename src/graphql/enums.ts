import { builder } from "./builder.ts";

/** The GraphQL name of a public enum value: `admin` -> `ADMIN`, `in-collection` -> `IN_COLLECTION`, `joinedAt` -> `JOINED_AT`. */
export function enumValueName(publicValue: string): string {
  return publicValue
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/-/g, "_")
    .toUpperCase();
}

/**
 * An enum whose GraphQL values are the UPPER_SNAKE_CASE names of the public (REST) values, each keeping its public
 * value as the internal value: resolvers and services see `"admin"`, GraphQL clients `ADMIN`, and the REST adapter
 * maps one to the other both ways from the schema.
 */
export function publicEnum<const Value extends string>(
  name: string,
  description: string,
  values: Readonly<Record<Value, string>>,
) {
  const config: Record<string, { value: Value; description: string }> = {};
  for (const [value, valueDescription] of Object.entries(values) as [Value, string][]) {
    config[enumValueName(value)] = { value, description: valueDescription };
  }
  return builder.enumType(name, { description, values: config });
}

export const RoleEnum = publicEnum(
  "Role",
  "Role of a member: admin > create > review > edit > comment > read. Null means a guest.",
  {
    admin: "Everything, including settings, members and deletion.",
    create: "Create spaces, sites, OpenAPI specs and translations; everything review may.",
    review: "Review and merge change requests; everything edit may.",
    edit: "Edit content, directly or through change requests; everything comment may.",
    comment: "Comment, reply and react; everything read may.",
    read: "See and read.",
  },
);
