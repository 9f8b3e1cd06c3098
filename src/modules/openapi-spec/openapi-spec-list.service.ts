import { z } from "zod";
import { authorizeInOrganization } from "../../auth/authorize.ts";
import type { OpenAPISpec } from "../../db/generated/client.ts";
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
import { type PageArgs, paginate, type SortKey } from "../../paging/pagination.ts";
import type { RequestContext } from "../../request/context.ts";
import { canReadSpecs } from "./openapi-spec.policy.ts";

/** An organization's specs, newest first. */
export const specOrder: SortKey<OpenAPISpec>[] = [
  { field: "createdAt", direction: "desc" },
  { field: "id", direction: "desc" },
];

/** The sorts of `openAPISpecs(orderBy:)`. */
export const specListOrder: ListOrder<OpenAPISpec> = {
  fields: { CREATED_AT: "createdAt", UPDATED_AT: "updatedAt", SLUG: "slug" },
  tiebreak: "id",
};

export const specFilterSchema = z.strictObject({
  slugContains: containsSchema.nullish().describe("Only specs whose slug contains this text, ignoring case"),
  processingState: z
    .enum(["pending", "progress", "complete"])
    .nullish()
    .describe("Only specs in this processing state"),
  ...timeRangeSchemas("specs"),
});

const specFilterRules: FilterRules<OpenAPISpec, z.infer<typeof specFilterSchema>> = {
  slugContains: { contains: "slug" },
  processingState: { equals: "processingState" },
  ...timeRangeRules,
};

export async function listSpecs(ctx: RequestContext, organizationId: string, page: PageArgs, list: ListArgs = {}) {
  await authorizeInOrganization(ctx, organizationId, canReadSpecs);
  const filter = parseFilter(specFilterSchema, list.filter);
  return paginate<OpenAPISpec>(page, {
    sort: sortFor(specListOrder, list.orderBy, specOrder),
    where: { organizationId, AND: filterWhere(specFilterRules, filter) },
    model: ctx.prisma.openAPISpec,
  });
}
