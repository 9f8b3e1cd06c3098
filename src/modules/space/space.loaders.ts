import type { Space } from "../../db/generated/client.ts";
import { byKeys, defineLoader } from "../../loaders.ts";

/** Spaces by id, deleted ones included, without access checks: services decide what the viewer may see. */
export const spaceByIdLoader = defineLoader<string, Space | null>("spaceById", async (ctx, ids) => {
  const rows = await ctx.prisma.space.findMany({ where: { id: { in: [...ids] } } });
  return byKeys(ids, rows, (row) => row.id);
});
