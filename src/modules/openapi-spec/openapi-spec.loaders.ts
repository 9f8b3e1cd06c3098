import type { OpenAPISpec } from "../../db/generated/client.ts";
import { byKeys, defineLoader } from "../../loaders.ts";

/** Specs by id, without access checks (callers reach them through a spec or version they may see). */
export const specByIdLoader = defineLoader<string, OpenAPISpec | null>("openAPISpecById", async (ctx, ids) => {
  const rows = await ctx.prisma.openAPISpec.findMany({ where: { id: { in: [...ids] } } });
  return byKeys(ids, rows, (row) => row.id);
});
