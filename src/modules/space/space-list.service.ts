import { z } from "zod";
import { readableByFilter } from "../../auth/readable.ts";
import type { Space } from "../../db/generated/client.ts";
import {
  containsSchema,
  type FilterRules,
  filterWhere,
  type ListArgs,
  type ListOrder,
  parseFilter,
  sortFor,
  timeRangeRules,
  timeRangeSchemas,
} from "../../paging/list-order.ts";
import { mapNodes, type PageArgs, paginate, type SortKey } from "../../paging/pagination.ts";
import type { RequestContext } from "../../request/context.ts";
import { visibleSpacesWhere } from "./space.access.ts";
import { spaceVisibilities } from "./space.service.ts";

export const spaceOrder: SortKey<Space>[] = [
  { field: "createdAt", direction: "asc" },
  { field: "id", direction: "asc" },
];

/** The sorts of `spaces(orderBy:)`. */
export const spaceListOrder: ListOrder<Space> = {
  fields: { CREATED_AT: "createdAt", UPDATED_AT: "updatedAt", TITLE: "title", POSITION: "position" },
  tiebreak: "id",
};

export const spaceFilterSchema = z.strictObject({
  titleContains: containsSchema.nullish().describe("Only spaces whose title contains this text, ignoring case"),
  visibility: z.enum(spaceVisibilities).nullish().describe("Only spaces with this visibility"),
  ...timeRangeSchemas("spaces"),
});

const spaceFilterRules: FilterRules<Space, z.infer<typeof spaceFilterSchema>> = {
  titleContains: { contains: "title" },
  visibility: { equals: "visibility" },
  ...timeRangeRules,
};

export async function listSpaces(ctx: RequestContext, organizationId: string, page: PageArgs, list: ListArgs = {}) {
  const sort = sortFor(spaceListOrder, list.orderBy, spaceOrder);
  const filter = parseFilter(spaceFilterSchema, list.filter);
  const visible = await visibleSpacesWhere(ctx, organizationId);
  const result = await paginate<Space>(page, {
    sort,
    where: { AND: [visible, ...filterWhere(spaceFilterRules, filter)] },
    model: ctx.prisma.space,
  });
  return mapNodes(result, readableByFilter);
}
