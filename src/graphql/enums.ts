import { builder } from "./builder.ts";

export const RoleEnum = builder.enumType("Role", {
  description: "Role of a member: admin > create > review > edit > comment > read. Null means a guest.",
  values: {
    admin: { description: "Everything, including settings, members and deletion." },
    create: { description: "Create spaces, sites, OpenAPI specs and translations; everything review may." },
    review: { description: "Review and merge change requests; everything edit may." },
    edit: { description: "Edit content, directly or through change requests; everything comment may." },
    comment: { description: "Comment, reply and react; everything read may." },
    read: { description: "See and read." },
  },
});

export const SortOrderEnum = builder.enumType("SortOrder", {
  description: "A direction of sorting.",
  values: {
    asc: { description: "Ascending: oldest or smallest first." },
    desc: { description: "Descending: newest or largest first." },
  },
});
