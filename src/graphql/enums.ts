import { roleOrder } from "../auth/roles.ts";
import { builder } from "./builder.ts";

export const RoleEnum = builder.enumType("Role", {
  description: "Role of a member: admin > create > review > edit > comment > read. Null means a guest.",
  values: [...roleOrder].reverse(),
});

export const SortOrderEnum = builder.enumType("SortOrder", { values: ["asc", "desc"] as const });
