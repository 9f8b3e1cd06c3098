import type { Site } from "../../db/generated/client.ts";
import { byKeys, defineLoader } from "../../loaders.ts";

/** Sites by id, without access checks. */
export const siteByIdLoader = defineLoader<string, Site | null>("siteById", async (ctx, ids) => {
  const rows = await ctx.prisma.site.findMany({ where: { id: { in: [...ids] } } });
  return byKeys(ids, rows, (row) => row.id);
});
