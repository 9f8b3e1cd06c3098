import { z } from "zod";
import type { ChangeRequest } from "../../db/generated/client.ts";
import {
  containsSchema,
  type FilterRules,
  type ListOrder,
  timeRangeRules,
  timeRangeSchemas,
} from "../../paging/list-order.ts";
import type { SortKey } from "../../paging/pagination.ts";

/** The change requests' default order: the last updated first. */
export const changeRequestOrder: SortKey<ChangeRequest>[] = [
  { field: "updatedAt", direction: "desc" },
  { field: "id", direction: "desc" },
];

/** The sorts of `changeRequests(orderBy:)`. */
export const changeRequestListOrder: ListOrder<ChangeRequest> = {
  fields: { CREATED_AT: "createdAt", UPDATED_AT: "updatedAt", NUMBER: "number" },
  tiebreak: "id",
};

export const changeRequestFilterSchema = z.strictObject({
  subjectContains: containsSchema.nullish().describe("Only change requests whose subject contains this, ignoring case"),
  ...timeRangeSchemas("change requests"),
});

export const changeRequestFilterRules: FilterRules<ChangeRequest, z.infer<typeof changeRequestFilterSchema>> = {
  subjectContains: { contains: "subject" },
  ...timeRangeRules,
};
