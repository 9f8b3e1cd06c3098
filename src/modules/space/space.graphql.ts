import type { Space } from "../../db/generated/client.ts";
import { builder } from "../../graphql/builder.ts";
import { getSpace, loadVisibleSpaces } from "./space.service.ts";

export const SpaceRef = builder.objectRef<Space>("Space");

builder.node(SpaceRef, {
  description: "A space: a container of documentation content.",
  id: { resolve: (space) => space.id },
  loadMany: (ids, ctx) => loadVisibleSpaces(ctx, ids),
  fields: (t) => ({
    object: t.string({ resolve: () => "space" }),
    title: t.exposeString("title"),
    emoji: t.exposeString("emoji"),
    visibility: t.exposeString("visibility"),
    organization: t.exposeID("organizationId"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
  }),
});

builder.queryFields((t) => ({
  space: t.field({
    type: SpaceRef,
    description: "getSpaceById",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => getSpace(ctx, String(args.id)),
  }),
}));
