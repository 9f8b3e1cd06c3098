import { roleOrder } from "../auth/roles.ts";
import { builder } from "./builder.ts";

export const RoleEnum = builder.enumType("Role", {
  description: "Role of a member: admin > create > review > edit > comment > read. Null means a guest.",
  values: [...roleOrder].reverse(),
});

export const SortOrderEnum = builder.enumType("SortOrder", { values: ["asc", "desc"] as const });

/**
 * Field extension for values the public API sends as `null` rather than leaving out (e.g. a guest's `role`).
 * The REST adapter drops every other null, as the public API leaves absent optional fields out.
 */
export const keepsNullInRest = { restKeepsNull: true } as const;
